import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { describeFailure } from '../../../lib/mutationOutcome';
import { errorText } from '../../../lib/errorMessages';
import { Avatar } from '../../../ui/Avatar';
import { Button } from '../../../ui/Button';
import { TextArea } from '../../../ui/Input';
import layout from '../../../ui/layout.module.css';
import { Notice } from '../../../ui/Notice';
import { RelativeTime } from '../../../ui/RelativeTime';
import { Spinner } from '../../../ui/Spinner';
import { useModalRoute } from '../../auth/hooks/useModalRoute';
import {
  COMMENT_MAX,
  useAddChallengeComment,
  useChallengeComments,
  useDeleteChallengeComment,
} from '../hooks/useChallengeComments';
import { nameOf } from './ChallengeCard';
import styles from './Challenge.module.css';

/** The comments under a challenge: write one (logged in), newest first, delete your own. */
export function ChallengeComments({ slug, loggedIn }: { slug: string; loggedIn: boolean }) {
  const { t } = useTranslation();
  const { openModal } = useModalRoute();
  const list = useChallengeComments(slug);
  const { addComment, loading: adding } = useAddChallengeComment();
  const { deleteComment, loading: deleting } = useDeleteChallengeComment();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const trimmed = text.trim();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (trimmed.length === 0) return setProblem(t('challenge.comments.required'));
    if (trimmed.length > COMMENT_MAX) {
      return setProblem(t('validation.characterMaximum', { limit: COMMENT_MAX }));
    }
    setProblem(null);
    const outcome = await addComment(slug, trimmed);
    if (!outcome.ok) return setFailure(describeFailure(t, outcome));
    setText('');
    await list.refetch();
  };

  const remove = async (id: string) => {
    setFailure(null);
    const outcome = await deleteComment(id);
    if (!outcome.ok) return setFailure(describeFailure(t, outcome));
    await list.refetch();
  };

  return (
    <section className={layout.panel} aria-labelledby="comments-title">
      <h2 id="comments-title" className={layout.panelTitle}>
        {t('challenge.comments.title', { count: list.totalCount })}
      </h2>
      {loggedIn ? (
        <form className={styles.commentForm} onSubmit={(event) => void submit(event)} noValidate>
          <TextArea
            label={t('challenge.comments.label')}
            name="comment"
            rows={3}
            value={text}
            onChange={(event) => setText(event.target.value)}
            status={problem ? 'error' : 'hint'}
            message={
              problem ?? t('challenge.comments.count', { count: trimmed.length, max: COMMENT_MAX })
            }
          />
          <div>
            <Button type="submit" variant="primary" size="sm" loading={adding}>
              {t('challenge.comments.submit')}
            </Button>
          </div>
        </form>
      ) : (
        <div>
          <Button variant="secondary" size="sm" onClick={() => openModal('login-magic-link')}>
            {t('challenge.comments.logIn')}
          </Button>
        </div>
      )}
      {failure ? (
        <Notice tone="error" title={t('challenge.comments.failed')}>
          <p>{failure}</p>
        </Notice>
      ) : null}
      {list.loading ? (
        <Spinner />
      ) : list.comments === null ? (
        <Notice
          tone="error"
          title={t('challenge.comments.loadFailed')}
          actions={
            <Button variant="secondary" size="sm" onClick={() => void list.refetch()}>
              {t('challenge.retry')}
            </Button>
          }
        >
          {list.failure ? (
            <p>{errorText(t, list.failure.identifier, list.failure.message)}</p>
          ) : null}
        </Notice>
      ) : list.comments.length === 0 ? (
        <p className={styles.emptyText}>{t('challenge.comments.empty')}</p>
      ) : (
        <ul className={styles.comments} aria-label={t('challenge.comments.listLabel')}>
          {list.comments.map((comment) => (
            <li key={comment.id} className={styles.comment}>
              <Avatar name={nameOf(comment.author)} src={comment.author.avatar} size="sm" />
              <div className={styles.cardBody}>
                {/* Delete sits on the name's line: the text keeps the whole width of a phone. */}
                <div className={styles.commentHead}>
                  <span className={styles.cardMeta}>
                    <Link to={`/profile/${encodeURIComponent(comment.author.username)}`}>
                      {nameOf(comment.author)}
                    </Link>
                    {' · '}
                    <RelativeTime value={comment.createdAt} />
                  </span>
                  {comment.canDelete ? (
                    <Button
                      variant="tertiary"
                      size="xs"
                      disabled={deleting}
                      onClick={() => void remove(comment.id)}
                      aria-label={t('challenge.comments.deleteLabel', {
                        name: nameOf(comment.author),
                      })}
                    >
                      {t('challenge.comments.delete')}
                    </Button>
                  ) : null}
                </div>
                <p className={styles.commentText}>{comment.text}</p>
              </div>
            </li>
          ))}
        </ul>
      )}
      {list.hasMore ? (
        <div>
          <Button
            variant="secondary"
            size="sm"
            loading={list.loadingMore}
            onClick={() => void list.loadMore()}
          >
            {t('challenge.comments.loadMore')}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
