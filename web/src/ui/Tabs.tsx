import { useRef } from 'react';
import { NavLink, useLocation } from 'react-router';
import { cx } from '../lib/cx';
import styles from './Tabs.module.css';
import { useScrollSelectedIntoView } from './useScrollSelectedIntoView';

export interface TabLink {
  to: string;
  label: string;
}

/** A row of links to sibling child routes; the current one is marked (aria-current="page"). */
export function TabLinks({ links, label }: { links: readonly TabLink[]; label: string }) {
  const strip = useRef<HTMLElement>(null);
  useScrollSelectedIntoView(strip, useLocation().pathname);
  return (
    <nav aria-label={label} className={styles.tabs} ref={strip} data-tab-strip>
      <ul className={styles.list}>
        {links.map((link) => (
          <li key={link.to}>
            <NavLink
              to={link.to}
              className={({ isActive }) => cx(styles.tab, isActive && styles.active)}
            >
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
