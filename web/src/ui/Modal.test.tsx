import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../app/i18n';
import { Modal, type ModalProps } from './Modal';

function renderModal(props: Partial<ModalProps> = {}) {
  const onClose = vi.fn();
  render(
    <I18nextProvider i18n={createI18n('en')}>
      <button type="button">opener</button>
      <Modal open title="Title" onClose={onClose} {...props}>
        <input aria-label="first" />
        <button type="button">last</button>
      </Modal>
    </I18nextProvider>,
  );
  return {
    onClose,
    backdrop: screen.getByTestId('modal-backdrop'),
    dialog: screen.getByRole('dialog', { name: 'Title' }),
  };
}

describe('Modal', () => {
  it('closes on Escape and on a click outside by default', () => {
    const { onClose, dialog, backdrop } = renderModal();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    fireEvent.mouseDown(backdrop);
    fireEvent.click(backdrop);
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('persistent: ignores a click outside but still closes on Escape', () => {
    const { onClose, dialog, backdrop } = renderModal({ persistent: true });
    fireEvent.mouseDown(backdrop);
    fireEvent.click(backdrop);
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('not escapable: ignores Escape and has no close button', () => {
    const { onClose, dialog } = renderModal({ notEscapable: true });
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Close dialog' })).toBeNull();
  });

  it('does not close when a drag starts inside and ends outside', () => {
    const { onClose, backdrop } = renderModal();
    fireEvent.mouseDown(screen.getByLabelText('first'));
    fireEvent.click(backdrop);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('moves focus into the dialog and keeps Tab inside it', () => {
    const { dialog } = renderModal();
    const first = screen.getByLabelText('first');
    const last = screen.getByRole('button', { name: 'last' });
    expect(document.activeElement).toBe(first);
    last.focus();
    fireEvent.keyDown(dialog, { key: 'Tab' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close dialog' }));
    fireEvent.keyDown(dialog, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
  });

  it('applies the size and position', () => {
    const { dialog } = renderModal({ size: 'lg', position: 'bottom' });
    expect(dialog.className).toContain('lg');
    expect(dialog.className).toContain('bottom');
  });

  it("adds no banner or contentinfo landmark beside the page's own (axe: one banner on phones)", () => {
    renderModal({ footer: <button type="button">ok</button> });
    expect(screen.queryAllByRole('banner')).toHaveLength(0);
    expect(screen.queryAllByRole('contentinfo')).toHaveLength(0);
  });

  it('gives focus back to the opener when it closes, even when a field inside took focus first', () => {
    function Opener() {
      const [open, setOpen] = useState(false);
      return (
        <I18nextProvider i18n={createI18n('en')}>
          <button type="button" onClick={() => setOpen(true)}>
            open it
          </button>
          <Modal open={open} title="Title" onClose={() => setOpen(false)}>
            {/* React focuses an autoFocus field while it commits, before the dialog's effects. */}
            <input aria-label="first" autoFocus />
          </Modal>
        </I18nextProvider>
      );
    }
    render(<Opener />);
    const opener = screen.getByRole('button', { name: 'open it' });
    opener.focus();
    fireEvent.click(opener);
    expect(document.activeElement).toBe(screen.getByLabelText('first'));
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});
