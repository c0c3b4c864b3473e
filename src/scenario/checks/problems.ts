/**
 * What a failing check tells the learner: what is wrong, never what the right value is. Every
 * check kind describes its failure as a Problem (a code and the facts of the learner's own state:
 * the object looked at, the value found, where a request was sent from); this file words it in
 * each language. The expected value stays in the report's `detail` (grade.ts), shown only with
 * `solution`, in the exam's review and by `cka-lab validate`.
 *
 * Subjects are written with identifiers only (`Deployment ledger/cache`, `cka-w1:/etc/hosts`), so
 * they read the same in every language; places (`from the workstation`) are worded per language.
 */
import type { Lang } from '../lang.js';
import type { Place } from './types.js';

export type Problem =
  /** The object, file or fact the task is about does not exist. */
  | { code: 'missing'; what: string }
  /** It exists and the task wants it gone. */
  | { code: 'still-there'; what: string }
  /** Deleted, but a finalizer keeps it Terminating. */
  | { code: 'held'; what: string }
  /** It has a value, not the one the task asks for. */
  | { code: 'value'; what: string; actual: string }
  /** None of the label selectors found selects what the task names. */
  | { code: 'no-selector'; what: string; path: string; candidates: number }
  | { code: 'endpoints'; service: string; ready: number }
  /** A request that should be answered failed. */
  | { code: 'unreachable'; url: string; from?: Place; error: string }
  /** A request that should be blocked was answered. */
  | { code: 'reachable'; url: string; from?: Place }
  | { code: 'body'; url: string; from?: Place; actual: string }
  | { code: 'lookup'; name: string; type: string; from?: Place; actual: string }
  /** The check's command exited with another status than the task's state would give. */
  | { code: 'exit'; on?: Place; reboot?: boolean; exitCode: number; output: string }
  | { code: 'output'; on?: Place; reboot?: boolean; actual: string }
  | { code: 'no-answer'; file?: string }
  | { code: 'answer'; actual: string }
  /** The fact could not be read (a flag not set, a unit not found, a file not YAML). */
  | { code: 'unreadable'; what: string; error: string }
  | { code: 'no-tool'; where?: Place; tools: string }
  /** The check itself could not run. */
  | { code: 'broken'; error: string };

export type ProblemCode = Problem['code'];

/** Problems that report a value the learner's state holds (a custom message may introduce it). */
const VALUED = new Set<ProblemCode>(['value', 'body', 'lookup', 'output', 'answer']);

export function problemValue(p: Problem): string | undefined {
  return VALUED.has(p.code) ? (p as { actual: string }).actual : undefined;
}

interface Words {
  empty: string;
  found: string;
  /** Where a request or lookup came from. */
  from(p: Place | undefined): string;
  /** Where a command ran. */
  at(p: Place | undefined, reboot: boolean): string;
  say: { [K in ProblemCode]: (p: Extract<Problem, { code: K }>, v: (s: string) => string) => string };
}

const podName = (p: { pod: string; namespace: string }): string => `${p.namespace}/${p.pod}`;

const EN: Words = {
  empty: '(empty)',
  found: 'Found:',
  from: (p) => (!p ? 'from the workstation' : 'host' in p ? `from ${p.host}` : `from pod ${podName(p)}`),
  at: (p, r) => `${!p ? 'on the workstation' : 'host' in p ? `on ${p.host}` : `in pod ${podName(p)}`}${r ? ' after a reboot' : ''}`,
  say: {
    missing: (p) => `${p.what} was not found.`,
    'still-there': (p) => `${p.what} still exists.`,
    held: (p) => `${p.what} is still Terminating, held by a finalizer.`,
    value: (p, v) => `${p.what} is ${v(p.actual)}, which is not what the task asks for.`,
    'no-selector': (p) => `${p.what}: none of the ${p.candidates} selector(s) at ${p.path} selects what the task asks for.`,
    endpoints: (p) => `Service ${p.service} has ${p.ready} ready endpoint(s), not what the task asks for.`,
    unreachable: (p) => `The request to ${p.url} ${EN.from(p.from)} failed: ${p.error}`,
    reachable: (p) => `The request to ${p.url} ${EN.from(p.from)} was answered; the task asks for it to be refused or blocked.`,
    body: (p, v) => `${p.url} ${EN.from(p.from)} answered ${v(p.actual)}, which is not what the task asks for.`,
    lookup: (p, v) => `The lookup of ${p.name} ${p.type} ${EN.from(p.from)} gave ${v(p.actual)}, which is not what the task asks for.`,
    exit: (p, v) => `The check's command ${EN.at(p.on, p.reboot === true)} exited with status ${p.exitCode}${p.output ? `: ${v(p.output)}` : '.'}`,
    output: (p, v) => `The check's command ${EN.at(p.on, p.reboot === true)} printed ${v(p.actual)}, which is not what the task asks for.`,
    'no-answer': (p) => `No answer yet: type \`answer <text>\`${p.file ? ` or write it to ${p.file}` : ''}.`,
    answer: (p, v) => `The answer ${v(p.actual)} is not the one the task asks for.`,
    unreadable: (p) => `${p.what} cannot be read: ${p.error}`,
    'no-tool': (p) => `The check cannot run ${EN.at(p.where, false)}: it has none of ${p.tools}.`,
    broken: (p) => `The check could not run: ${p.error}`,
  },
};

const JA: Words = {
  empty: '（空）',
  found: '実際の値:',
  from: (p) => (!p ? 'ワークステーションから' : 'host' in p ? `${p.host} から` : `Pod ${podName(p)} から`),
  at: (p, r) => `${!p ? 'ワークステーション' : 'host' in p ? p.host : `Pod ${podName(p)} 内`}${r ? '、再起動後' : ''}`,
  say: {
    missing: (p) => `${p.what} が見つかりません。`,
    'still-there': (p) => `${p.what} がまだ存在します。`,
    held: (p) => `${p.what} は finalizer に保持され、Terminating のままです。`,
    value: (p, v) => `${p.what} は ${v(p.actual)} で、タスクが求める値ではありません。`,
    'no-selector': (p) => `${p.what}: ${p.path} にある ${p.candidates} 個のセレクタのどれも、タスクが求めるものを選択していません。`,
    endpoints: (p) => `Service ${p.service} の Ready なエンドポイントは ${p.ready} 個で、タスクが求める数ではありません。`,
    unreachable: (p) => `${JA.from(p.from)} ${p.url} へのリクエストは失敗しました: ${p.error}`,
    reachable: (p) => `${JA.from(p.from)} ${p.url} へのリクエストに応答がありました。タスクはこれを拒否または遮断するよう求めています。`,
    body: (p, v) => `${JA.from(p.from)} ${p.url} への応答は ${v(p.actual)} で、タスクが求める内容ではありません。`,
    lookup: (p, v) => `${JA.from(p.from)} ${p.name} ${p.type} を引いた結果は ${v(p.actual)} で、タスクが求めるものではありません。`,
    exit: (p, v) => `チェック用のコマンド（${JA.at(p.on, p.reboot === true)}）は終了ステータス ${p.exitCode} で終了しました${p.output ? `: ${v(p.output)}` : '。'}`,
    output: (p, v) => `チェック用のコマンド（${JA.at(p.on, p.reboot === true)}）の出力は ${v(p.actual)} で、タスクが求めるものではありません。`,
    'no-answer': (p) => `まだ回答がありません。\`answer <text>\` と入力してください${p.file ? `（または ${p.file} に書き込んでください）` : ''}。`,
    answer: (p, v) => `回答 ${v(p.actual)} はタスクが求める答えではありません。`,
    unreadable: (p) => `${p.what} を読み取れません: ${p.error}`,
    'no-tool': (p) => `${JA.at(p.where, false)}ではチェックを実行できません: ${p.tools} のいずれもありません。`,
    broken: (p) => `チェックを実行できませんでした: ${p.error}`,
  },
};

const ZH: Words = {
  empty: '（空）',
  found: '实际值：',
  from: (p) => (!p ? '从工作站' : 'host' in p ? `从 ${p.host} ` : `从 Pod ${podName(p)} `),
  at: (p, r) => `${!p ? '在工作站上' : 'host' in p ? `在 ${p.host} 上` : `在 Pod ${podName(p)} 中`}${r ? '重启后' : ''}`,
  say: {
    missing: (p) => `未找到 ${p.what}。`,
    'still-there': (p) => `${p.what} 仍然存在。`,
    held: (p) => `${p.what} 仍处于 Terminating 状态，被 finalizer 保留。`,
    value: (p, v) => `${p.what} 为 ${v(p.actual)}，不是任务要求的值。`,
    'no-selector': (p) => `${p.what}：${p.path} 处的 ${p.candidates} 个选择器都没有选中任务要求的对象。`,
    endpoints: (p) => `Service ${p.service} 有 ${p.ready} 个就绪端点，不是任务要求的数量。`,
    unreachable: (p) => `${ZH.from(p.from)}访问 ${p.url} 失败：${p.error}`,
    reachable: (p) => `${ZH.from(p.from)}访问 ${p.url} 得到了响应；任务要求该请求被拒绝或阻止。`,
    body: (p, v) => `${ZH.from(p.from)}访问 ${p.url} 的响应为 ${v(p.actual)}，不是任务要求的内容。`,
    lookup: (p, v) => `${ZH.from(p.from)}查询 ${p.name} ${p.type} 的结果为 ${v(p.actual)}，不是任务要求的结果。`,
    exit: (p, v) => `检查命令（${ZH.at(p.on, p.reboot === true)}）以退出状态 ${p.exitCode} 结束${p.output ? `：${v(p.output)}` : '。'}`,
    output: (p, v) => `检查命令（${ZH.at(p.on, p.reboot === true)}）输出 ${v(p.actual)}，不是任务要求的结果。`,
    'no-answer': (p) => `还没有回答：请输入 \`answer <text>\`${p.file ? `（或写入 ${p.file}）` : ''}。`,
    answer: (p, v) => `回答 ${v(p.actual)} 不是任务要求的答案。`,
    unreadable: (p) => `无法读取 ${p.what}：${p.error}`,
    'no-tool': (p) => `${ZH.at(p.where, false)}无法运行检查：没有 ${p.tools} 中的任何一个。`,
    broken: (p) => `检查无法运行：${p.error}`,
  },
};

const WORDS: Record<Lang, Words> = { en: EN, ja: JA, 'zh-CN': ZH };

/** A value as the learner sees it: quoted, line breaks as \\n, at most 3 lines. */
function shown(words: Words, s: string): string {
  const t = s.replace(/\s+$/, '');
  if (t === '') return words.empty;
  const lines = t.split('\n');
  return lines.length <= 3 ? JSON.stringify(t) : `${JSON.stringify(lines.slice(0, 3).join('\n'))} (+${lines.length - 3})`;
}

/** The problem in `lang`. */
export function sayProblem(p: Problem, lang: Lang): string {
  const w = WORDS[lang];
  const say = w.say[p.code] as (p: Problem, v: (s: string) => string) => string;
  return say(p, (s) => shown(w, s));
}

/**
 * The learner's line for a failed check: the author's `message` (if any) leads; a message ending
 * in a colon introduces the value found, otherwise the problem follows in full.
 */
export function learnerMessage(p: Problem, lang: Lang, custom?: string): string {
  if (!custom) return sayProblem(p, lang);
  const w = WORDS[lang];
  const value = problemValue(p);
  const c = custom.trim();
  if (value !== undefined && /[:\uff1a]$/.test(c)) return `${c} ${shown(w, value)}`;
  if (value !== undefined) return `${c} ${w.found} ${shown(w, value)}`;
  return `${c} ${sayProblem(p, lang)}`;
}

/** The author's view of a failed check (validate, `solution`, the exam review): expected and actual. */
export function detailLine(expected: string, actual: string, lang: Lang): string {
  if (lang === 'ja') return `期待: ${expected}; 実際: ${actual}`;
  if (lang === 'zh-CN') return `期望：${expected}；实际：${actual}`;
  return `expected ${expected}; got ${actual}`;
}
