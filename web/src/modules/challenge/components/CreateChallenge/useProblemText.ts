import { useTranslation } from 'react-i18next';
import { formatAmount } from '../../../../lib/money';
import type { DraftField, DraftProblem } from '../../draft';

/** The first problem of a field as text, or undefined. */
export function useProblemText(problems: DraftProblem[]) {
  const { t, i18n } = useTranslation();
  return (field: DraftField): string | undefined => {
    const problem = problems.find((entry) => entry.field === field);
    if (!problem) return undefined;
    const { minCents, ...values } = problem.values ?? {};
    return t(`createChallenge.errors.${problem.key}` as 'createChallenge.errors.titleRequired', {
      ...values,
      // An amount in cents reads as euros in the UI language.
      ...(typeof minCents === 'number' ? { min: formatAmount(minCents, i18n.language) } : {}),
    });
  };
}
