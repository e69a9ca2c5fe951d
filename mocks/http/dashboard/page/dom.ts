/**
 * DOM helpers of the dashboard page. Everything the page shows is data from the mock, and request and
 * response bodies are attacker-controlled: text goes in as text nodes (`textContent`), attributes
 * through `setAttribute`, never as markup. No helper here parses HTML.
 */

export type Child = Node | string | number | null | undefined | false;

export interface Attributes {
  readonly [name: string]: string | number | boolean | undefined | null;
}

/**
 * An element with attributes and children; strings become text nodes.
 *
 * @example
 * el('td', { class: 'path' }, entry.path) // the path shown as text, whatever it contains
 */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    node.setAttribute(name, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** The element with this id; a missing one is a bug of the page, named in the error. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`dashboard: no element #${id}`);
  return found as T;
}

/**
 * Replaces a container's children, keeping keyboard focus: the element that had focus is found again
 * by its `data-focus` key in the new content (a refresh must not throw a keyboard user back to the top).
 */
export function replaceChildren(container: HTMLElement, children: readonly Child[]): void {
  const active = document.activeElement;
  const key =
    active instanceof HTMLElement && container.contains(active) ? active.dataset['focus'] : undefined;
  container.replaceChildren();
  append(container, children);
  if (key === undefined) return;
  for (const candidate of container.querySelectorAll<HTMLElement>('[data-focus]')) {
    if (candidate.dataset['focus'] === key) {
      candidate.focus();
      return;
    }
  }
}

/** A button that runs `action` on click (keyboard included: it is a real button). */
export function button(label: string, action: () => void, attributes: Attributes = {}): HTMLButtonElement {
  const node = el('button', { type: 'button', ...attributes }, label);
  node.addEventListener('click', action);
  return node;
}

/** A same-origin path for a link: anything else (another origin, a `javascript:` URL) is refused. */
export function safePath(path: string): string | null {
  return /^\/(?!\/)[^\s\\]*$/.test(path) ? path : null;
}
