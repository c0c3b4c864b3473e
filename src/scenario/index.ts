/**
 * The scenario engine's public API: load the library, instantiate a scenario for a seed, set up a
 * session for it, grade the session's state, validate scenarios, draw an exam.
 */
export { loadLibrary, loadScenarioFile, parseScenario, formatLoadError, ScenarioLoadError, type LoadError, type LoadedScenario, type KnownScenario } from './loader.js';
export { readIndex, writeIndex, buildIndex, knownFrom, INDEX_FILE, type ScenarioIndex } from './library-index.js';
export { ScenarioSchema, DOMAINS, type Scenario, type ScenarioInput, type Domain, type CheckSpec, type SetupStep, type Break, type Mutation, type Alternative } from './schema.js';
export { instantiate, type Instance } from './instance.js';
export { setupSession, cloneSession, fixtureSnapshot, type FixtureCache, type SetupOptions } from './session.js';
export { grade, type GradeReport, type CheckReport, type GradeOptions } from './grade.js';
export { validateScenario, seedsFor, VALIDATE_SEEDS, type ValidationResult, type ValidateOptions } from './validate.js';
export { startWorkers, validateMany, type PoolOptions } from './validate-pool.js';
export { CURRICULUM, LEGACY_COMPETENCIES, resolveCompetency, competencyById, type Competency } from './curriculum.js';
export { stratifiedDraw, apportion, type DomainWeights } from './draw.js';
export { recordAnswer, readAnswers } from './answers.js';
export { textFor, resolveLang, normaliseLang, LANGS, type Lang, type Text } from './text.js';
export { SetupError } from './setup/index.js';
export { CHECK_KINDS } from './checks/registry.js';
