import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Input } from './Input';

describe('Input', () => {
  it.each(['success', 'error', 'hint'] as const)(
    'shows the message under the field for status %s',
    (status) => {
      render(<Input label="Name" status={status} message="The message" />);
      const input = screen.getByLabelText('Name');
      const message = screen.getByText('The message');
      expect(input.getAttribute('aria-describedby')).toContain(message.closest('p')?.id);
      expect(message.closest('p')?.getAttribute('data-status')).toBe(status);
      expect(input.getAttribute('aria-invalid')).toBe(status === 'error' ? 'true' : null);
    },
  );

  it('shows nothing for status none', () => {
    render(<Input label="Name" status="none" message="The message" />);
    expect(screen.queryByText('The message')).toBeNull();
    expect(screen.getByLabelText('Name').getAttribute('aria-describedby')).toBeNull();
  });
});
