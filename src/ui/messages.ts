/**
 * The tool's own words on its screens and in its reports, in each language the task texts have
 * (en, ja, zh-CN): one table per language, the English one here, the others beside it
 * (messages-ja.ts, messages-zh-cn.ts), all typed by `Messages` so a text missing in one language
 * fails to compile. Texts with values are small functions, so each language puts the values where
 * its word order wants them.
 *
 * What the learner types and what real tools print stays as it is in every language: commands,
 * meta-command names (`task`, `hint`, `check`, `solution`, `reset`…), flags, ids, paths, domain and
 * topic names, mode names and the `[y/N]` of a question. ui and cli read this table; app (below ui)
 * never does, so its warnings stay English.
 */
import type { Lang } from '../scenario/lang.js';
import { JA } from './messages-ja.js';
import { ZH_CN } from './messages-zh-cn.js';

export interface Messages {
  /** `Score: 3/4 (75%)` under a grade and in the self-check summary. */
  score: string;
  /** Under a passing guard check (passAtStart) that earns nothing until one of the task's own checks passes. */
  guardWaits: string;
  /** Heading of the checks shown with the reference solution (expected values included). */
  expectations: string;
  /** An exam task the learner never worked on, in place of a score and a time. */
  notAttempted: string;
  /** Marks an attempt where the learner looked at the solution. */
  assisted: string;
  /** An exam's verdict, in the report and in history. */
  pass: string;
  fail: string;
  /** The commands or topics to practise next (self-check summary, history). */
  practiseNext(list: string): string;
  /** A `--lang` value that is none of en, ja, zh-CN (after `cka-lab: `; in the environment's language). */
  unknownLang(flag: string): string;

  /** The task panel, hints and the reference solution (panel.ts). */
  panel: {
    /** Before the title in an exam: `Task 3 of 17: `. */
    position(index: number, total: number): string;
    /** Under the title; domain and difficulty are ids and stay as they are. */
    facts(domain: string, difficulty: string, points: number, minutes: number): string;
    /** The task starts on another host than the workstation (`host` comes coloured). */
    solveOn(host: string, workstation: string): string;
    referenceSolution: string;
    noHints: string;
    noMoreHints(total: number): string;
    hint(index: number, total: number, text: string): string;
  };

  /** Practice and self-check meta-commands (practice.ts). */
  practice: {
    /** The last run crashed and its task goes on (after `cka-lab: `). */
    resumed(mode: 'practice' | 'check', id: string): string;
    noMoreTasks: string;
    /** The question before the solution; the answer stays y/N in every language. */
    askSolution: string;
    answerUsage: string;
    answerRecorded(text: string): string;
    reset: string;
  };

  /** The exam's meta-commands, timer, report and review (ui/exam.ts, cli/exam.ts). */
  exam: {
    start(tasks: number, short: string, minutes: number, passMark: number): string;
    /** Inserted after the number of tasks when the library has fewer than asked for. */
    libraryOnly(drawn: number): string;
    resuming(started: string, left: string): string;
    /** After `cka-lab: `. */
    unreadable(reason: string, movedTo: string): string;
    chooseTask(total: number): string;
    flagged(index: number): string;
    unflagged(index: number): string;
    answerRecorded(index: number, text: string): string;
    askSubmit: string;
    submitted: string;
    goesOn(left: string): string;
    timeUp: string;
    alert(minutes: number): string;
    /** `tasks`: one row's tail after the title. */
    listFacts(domain: string, points: string): string;
    reportHead: readonly [string, string, string, string, string, string, string];
    /** A task's heading in the report and the review. */
    task(index: number, title: string): string;
    total(points: number, max: number, percent: number, verdict: string, passMark: number): string;
    reviewComplete: string;
    reviewHeading: string;
    /** `cka-lab exam`'s own refusals (after `cka-lab: `). */
    tasksAtLeastOne: string;
    minutesAtLeastOne: string;
    emptyLibrary: string;
  };

  /** `cka-lab check` (cli/check.ts). */
  check: {
    intro(what: string, tasks: number): string;
    summary(what: string, graded: number, tasks: number): string;
    notGraded: string;
    allPassed: string;
    /** After `cka-lab: `. */
    noSuchDomainOrTopic(what: string, names: string): string;
  };

  /** `cka-lab practice`'s refusals and the menu (cli/practice.ts, menus.ts). */
  choose: {
    noScenario(id: string, filtered: boolean): string;
    noMatch(filters: string): string;
    domain: string;
    topic: string;
    task: string;
    allTopics: string;
    domainChoice(domain: string, tasks: number): string;
    taskFacts(difficulty: string, minutes: number): string;
  };

  /** `cka-lab history` (cli/history.ts). */
  history: {
    empty: string;
    exams: string;
    examsHead: readonly [string, string, string, string, string];
    attempts: string;
    attemptsHead: readonly [string, string, string, string, string, string];
    domains: string;
    domainsHead: readonly [string, string, string, string];
    topics: string;
    topicsHead: readonly [string, string, string];
    times: string;
    timesHead: readonly [string, string, string, string, string];
  };

  /** `cka-lab list` and `show` (cli/list.ts, cli/show.ts). */
  library: {
    /** `NN min`; `minutes` comes padded. */
    minutes(minutes: string): string;
    emptyDomain(domain: string): string;
    empty: string;
    facts(domain: string, topics: string, difficulty: string, weight: number, minutes: number): string;
    competency(text: string): string;
    fixture(fixture: string): string;
    host(host: string): string;
    hintsAndChecks(hints: number): string;
    checkPoints(points: number): string;
  };

  /** Sessions of `cka-lab shell` and the one-shot `cka-lab kubectl` (cli/shell.ts, cli/kubectl.ts); after `cka-lab: `. */
  session: {
    /** After `cka-lab shell: `. */
    created(name: string, fixture: string, seed: number): string;
    resumed(name: string, fixture: string, seed: number): string;
    notResumed(name: string, why: string, movedTo: string): string;
    notRead(name: string, reason: string, movedTo: string): string;
    invalidName(name: string): string;
    exists(name: string, fixture: string, seed: number): string;
    /** Several sessions are open; `open` lists them as `"name" (mode task)`. */
    severalOpen(open: string, chosen: string): string;
    needsTerminal: string;
  };
}

const EN: Messages = {
  score: 'Score',
  guardWaits: 'counts once one of the task\'s other checks passes',
  expectations: 'What each check expects:',
  notAttempted: 'not attempted',
  assisted: 'assisted',
  pass: 'PASS',
  fail: 'FAIL',
  practiseNext: (list) => `Practise next: ${list}`,
  unknownLang: (flag) => `unknown language "${flag}" (en, ja, zh-CN)`,
  panel: {
    position: (index, total) => `Task ${index} of ${total}: `,
    facts: (domain, difficulty, points, minutes) => `${domain} · ${difficulty} · ${points} points · target ${minutes} min`,
    solveOn: (host, workstation) => `Solve this on ${host} (you are there now; \`exit\` returns to ${workstation}).`,
    referenceSolution: 'Reference solution:',
    noHints: 'This task has no hints.',
    noMoreHints: (total) => `No more hints (${total} of ${total} shown). \`solution\` shows the reference solution.`,
    hint: (index, total, text) => `Hint ${index}/${total}: ${text}`,
  },
  practice: {
    resumed: (mode, id) => `the last ${mode} ended without quitting; ${id} goes on where it was left (\`reset\` starts it over)`,
    noMoreTasks: 'No more tasks here.',
    askSolution: 'Show the reference solution? The attempt will count as assisted. [y/N] ',
    answerUsage: 'usage: answer TEXT',
    answerRecorded: (text) => `Answer recorded: ${text}`,
    reset: 'The task is set up again from scratch.',
  },
  exam: {
    start: (tasks, short, minutes, passMark) => `Exam: ${tasks} tasks${short}, ${minutes} minutes, pass mark ${passMark}%. Commands: tasks, task N, flag, answer TEXT, submit, quit.`,
    libraryOnly: (drawn) => ` (the library has only ${drawn})`,
    resuming: (started, left) => `Resuming the exam started ${started}: ${left} left.`,
    unreadable: (reason, movedTo) => `the exam in progress could not be read (${reason}); it was moved to ${movedTo}`,
    chooseTask: (total) => `task: choose a task from 1 to ${total}`,
    flagged: (index) => `Task ${index} flagged.`,
    unflagged: (index) => `Task ${index} unflagged.`,
    answerRecorded: (index, text) => `Answer recorded for task ${index}: ${text}`,
    askSubmit: 'Submit the exam for grading now? [y/N] ',
    submitted: 'Exam submitted.',
    goesOn: (left) => `The exam goes on: ${left} left. Resume with \`cka-lab exam\`.`,
    timeUp: "Time is up. Stop working: the exam is graded on the state you've left.",
    alert: (minutes) => `*** ${minutes} minutes left ***`,
    listFacts: (domain, points) => `(${domain}, ${points} points)`,
    reportHead: ['#', 'Task', 'Domain', 'Points', 'Checks', 'Time', 'Target'],
    task: (index, title) => `Task ${index}: ${title}`,
    total: (points, max, percent, verdict, passMark) => `Total: ${points}/${max} points (${percent}%). ${verdict} (pass mark ${passMark}%)`,
    reviewComplete: 'Review: every task is complete.',
    reviewHeading: 'Review (tasks with points lost):',
    tasksAtLeastOne: '--tasks must be at least 1',
    minutesAtLeastOne: '--minutes must be at least 1',
    emptyLibrary: 'the scenario library is empty',
  },
  check: {
    intro: (what, tasks) => `Self-check of ${what}: ${tasks} task${tasks === 1 ? '' : 's'}, shortest first. \`check\` grades, \`next\` records the result and moves on.`,
    summary: (what, graded, tasks) => `Self-check of ${what}: ${graded} of ${tasks} tasks graded`,
    notGraded: 'not graded',
    allPassed: 'Every task passed.',
    noSuchDomainOrTopic: (what, names) => `no domain or topic "${what}" (one of: ${names})`,
  },
  choose: {
    noScenario: (id, filtered) => `no scenario "${id}"${filtered ? ' matching --domain/--topic' : ''} (see \`cka-lab list\`)`,
    noMatch: (filters) => `no scenarios match${filters} (see \`cka-lab list\`)`,
    domain: 'Domain',
    topic: 'Topic',
    task: 'Task',
    allTopics: '(all topics)',
    domainChoice: (domain, tasks) => `${domain} (${tasks} tasks)`,
    taskFacts: (difficulty, minutes) => `(${difficulty}, ${minutes} min)`,
  },
  history: {
    empty: 'No attempts yet. Start with `cka-lab practice`.',
    exams: 'Exams',
    examsHead: ['Exam', 'Date', 'Tasks', 'Score', 'Result'],
    attempts: 'Attempts',
    attemptsHead: ['Date', 'Mode', 'Task', 'Score', 'Time', 'Target'],
    domains: 'Strength by domain (weakest first)',
    domainsHead: ['Domain', 'Attempts', 'Points', 'Strength'],
    topics: 'Topics (weakest first)',
    topicsHead: ['Topic', 'Attempts', 'Strength'],
    times: 'Time per task (slowest relative to target first)',
    timesHead: ['Task', 'Attempts', 'Mean time', 'Target', 'Ratio'],
  },
  library: {
    minutes: (minutes) => `${minutes} min`,
    emptyDomain: (domain) => `No scenarios in domain ${domain}.`,
    empty: 'No scenarios.',
    facts: (domain, topics, difficulty, weight, minutes) => `domain: ${domain}   topics: ${topics}   difficulty: ${difficulty}   weight: ${weight}   target: ${minutes} min`,
    competency: (text) => `competency: ${text}`,
    fixture: (fixture) => `fixture: ${fixture}`,
    host: (host) => `   host: ${host}`,
    hintsAndChecks: (hints) => `${hints} hint${hints === 1 ? '' : 's'}; checks:`,
    checkPoints: (points) => `(${points} point${points === 1 ? '' : 's'})`,
  },
  session: {
    created: (name, fixture, seed) => `session "${name}" created on ${fixture} (seed ${seed}). Type \`exit\` or press Ctrl-D to leave.`,
    resumed: (name, fixture, seed) => `session "${name}" resumed on ${fixture} (seed ${seed}). Type \`exit\` or press Ctrl-D to leave.`,
    notResumed: (name, why, movedTo) => `session "${name}" could not be resumed (${why}); it was moved to ${movedTo} and a new session starts`,
    notRead: (name, reason, movedTo) => `session "${name}" could not be read (${reason}); it was moved to ${movedTo} and a new session starts`,
    invalidName: (name) => `invalid session name "${name}" (letters, digits, '.', '_', '-')`,
    exists: (name, fixture, seed) => `session "${name}" already exists on fixture ${fixture} (seed ${seed}); use --session NAME for a new one`,
    severalOpen: (open, chosen) => `sessions ${open} are open; this command uses "${chosen}", the last one used (CKA_LAB_SESSION=NAME picks one)`,
    needsTerminal: 'an interactive shell in a container needs the simulated terminal: run `cka-lab shell`, then the same kubectl exec',
  },
};

const TABLES: Record<Lang, Messages> = { en: EN, ja: JA, 'zh-CN': ZH_CN };

/** The tool's words in `lang`. */
export function messages(lang: Lang): Messages {
  return TABLES[lang];
}
