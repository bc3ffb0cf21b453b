import { useParams } from 'react-router';
import { isValidSlug } from '../../../../lib/validation';
import { InvalidRouteParamsPage } from '../../../errors/components/NotFoundPage';
import { ChallengeDetail } from './ChallengeDetail';

/** /challenge/{slug}/detail: the challenge in any state, with the actions of the viewer's role. */
export function ChallengeDetailPage() {
  const { slug = '' } = useParams();
  // Route validation first (spec section 4): no challenge can have this slug.
  return isValidSlug(slug) ? <ChallengeDetail slug={slug} /> : <InvalidRouteParamsPage />;
}
