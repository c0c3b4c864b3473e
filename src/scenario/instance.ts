/**
 * An instance: a scenario with its parameters resolved for one seed and substituted everywhere.
 * The seed also seeds the fixture's cluster, so the same seed gives the same pod names and IPs.
 */
import { resolveParams, substituteDeep, type ParamValues } from './params.js';
import type { Scenario } from './schema.js';

export interface Instance {
  scenario: Scenario;
  seed: number;
  params: ParamValues;
  /** The scenario with every `{{param}}` replaced (params itself left as declared). */
  resolved: Scenario;
}

export function instantiate(scenario: Scenario, seed: number): Instance {
  const params = resolveParams(scenario.id, scenario.params, seed);
  const { params: declared, ...rest } = scenario;
  const resolved = { ...substituteDeep(rest, params), params: declared } as Scenario;
  return { scenario, seed, params, resolved };
}
