import type { ReactNode } from 'react';
import styles from './PagePlaceholder.module.css';

export interface PagePlaceholderProps {
  title: string;
  description: string;
  icon?: ReactNode;
  /** Optional call to action under the text. */
  children?: ReactNode;
  /** Heading level: h1 for a page, h2 inside a page that has its own title. */
  as?: 'h1' | 'h2';
}

/** The panel a page shows while its feature is still being built: a title and one sentence. */
export function PagePlaceholder({
  title,
  description,
  icon,
  children,
  as: Heading = 'h1',
}: PagePlaceholderProps) {
  return (
    <section className={styles.placeholder}>
      {icon ? (
        <div className={styles.icon} aria-hidden="true">
          {icon}
        </div>
      ) : null}
      <Heading className={styles.title}>{title}</Heading>
      <p className={styles.description}>{description}</p>
      {children ? <div className={styles.actions}>{children}</div> : null}
    </section>
  );
}
