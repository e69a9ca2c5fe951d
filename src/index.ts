/**
 * `cca-kit`: the contract, its rules catalog and the one validation layer. The mock
 * (`cca-kit/mock`, `cca-kit/msw`), the conformance suite (`cca-kit/conformance`) and the typed client
 * (`cca-kit/client`) have entry points of their own, so importing the root pulls in none of them.
 *
 * @example
 * import { getRule, validateResponse } from 'cca-kit';
 *
 * const result = validateResponse('listActions', 200, body);
 * if (!result.ok) console.error(getRule('LIST-RESPONSE-ENVELOPE').statement, result.issues);
 */
export * from './contract/index.ts';
export {
  getRule,
  type Rule,
  type RuleCheck,
  type RuleKind,
  ruleGroup,
  rules,
  rulesByGroup,
  rulesFor,
} from './contract/rules.ts';
