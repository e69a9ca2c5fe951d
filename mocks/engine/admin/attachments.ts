/**
 * What an observer attached to an engine (its violation log, chaos modes, journal), found through the
 * engine's admin API. A small module of its own, so the admin routes and other observers can find one
 * without carrying its implementation (a page's bundle takes each `cca-kit/msw` feature alone).
 */
import type { AdminApi } from './api.ts';

export class Attachments<T> {
  readonly #byAdmin = new WeakMap<AdminApi, T>();

  /** Called by the observer's `attach`: the engine owning `admin` has `value`. */
  set(admin: AdminApi, value: T): void {
    this.#byAdmin.set(admin, value);
  }

  /** What is attached to the engine owning `admin`, if anything. */
  of(admin: AdminApi): T | undefined {
    return this.#byAdmin.get(admin);
  }
}
