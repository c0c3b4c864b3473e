/**
 * The tool's own words on its screens, in each language the task texts have (en, ja, zh-CN).
 * Commands, ids and paths stay as they are; only the prose around them is translated.
 */
import type { Lang } from '../scenario/index.js';

export interface UiWords {
  /** `Score: 3/4 (75%)` under a grade. */
  score: string;
  /** Heading of the checks shown with the reference solution (expected values included). */
  expectations: string;
  /** An exam task the learner never worked on, in place of a score and a time. */
  notAttempted: string;
  /** Marks an attempt where the learner looked at the solution. */
  assisted: string;
}

const WORDS: Record<Lang, UiWords> = {
  en: { score: 'Score', expectations: 'What each check expects:', notAttempted: 'not attempted', assisted: 'assisted' },
  ja: { score: '得点', expectations: '各チェックが期待する内容:', notAttempted: '未着手', assisted: '解答参照' },
  'zh-CN': { score: '得分', expectations: '各项检查的期望：', notAttempted: '未作答', assisted: '看过答案' },
};

export function uiWords(lang: Lang): UiWords {
  return WORDS[lang];
}
