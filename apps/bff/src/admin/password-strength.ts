import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';

/** zxcvbn's 0–4 scale: 3 is "safely unguessable" against an online attack with throttling (ADR 0023). */
const MIN_SCORE = 3;

const estimator = new ZxcvbnFactory({
  dictionary: { ...common.dictionary, ...english.dictionary },
  graphs: common.adjacencyGraphs,
  translations: english.translations,
});

/**
 * Why `password` is too easy to guess, in words a person reads, or undefined when it is strong enough. zxcvbn-ts
 * with its common-password and English dictionaries and keyboard patterns; the account's own email and name
 * count as guesses too.
 */
export function weakPasswordReason(password: string, userInputs: readonly string[]): string | undefined {
  // Each word of an email or a name, too: `ada.lovelace1` is a guess from `ada.lovelace@example.com`.
  const words = userInputs.flatMap((input) => [input, ...input.split(/[^\p{L}\p{N}]+/u)]).filter(Boolean);
  const result = estimator.check(password, words);
  if (result.score >= MIN_SCORE) return undefined;
  const why = result.feedback.warning ?? 'This password would be easy to guess.';
  return `${why.replace(/\.?$/, '.')} Use a longer phrase of several unrelated words.`;
}
