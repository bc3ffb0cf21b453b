import { useTranslation } from 'react-i18next';
import type { DraftField, DraftProblem } from '../../draft';

/** The first problem of a field as text, or undefined. */
export function useProblemText(problems: DraftProblem[]) {
  const { t } = useTranslation();
  return (field: DraftField): string | undefined => {
    const problem = problems.find((entry) => entry.field === field);
    return problem
      ? t(`createChallenge.errors.${problem.key}` as 'createChallenge.errors.titleRequired', {
          ...problem.values,
        })
      : undefined;
  };
}
