import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answerMock, loggedOutMock, statusOf } from '../../../test/mocks';
import { renderApp } from '../../../test/renderApp';
import {
  InvitationOptOutDocument,
  UpdateInvitationOptOutDocument,
  type InvitationOptOutQueryVariables,
  type UpdateInvitationOptOutMutationVariables,
} from '../graphql/InvitationOptOut';

const TOKEN = 'ZnJpZW5kQGV4YW1wbGUudGVzdA.c2lnbmF0dXJl';
const EMAIL = 'friend@example.test';

const answer = (optedOut: boolean | null, identifier = 'ok') => ({
  __typename: 'InvitationOptOutResult',
  status: statusOf(identifier === 'ok', identifier, identifier === 'ok' ? 'OK' : 'Refused'),
  invitationOptOut:
    optedOut === null ? null : { __typename: 'InvitationOptOut', email: EMAIL, optedOut },
});

const readMock = (optedOut: boolean | null, identifier?: string) =>
  answerMock<InvitationOptOutQueryVariables>(
    InvitationOptOutDocument,
    { input: { token: TOKEN } },
    { getInvitationOptOut: answer(optedOut, identifier) },
    { times: Number.POSITIVE_INFINITY },
  );

const updateMock = (sent: UpdateInvitationOptOutMutationVariables[]) =>
  answerMock<UpdateInvitationOptOutMutationVariables>(
    UpdateInvitationOptOutDocument,
    () => true,
    ({ input }) => ({ updateInvitationOptOut: answer(input.optedOut) }),
    { onVariables: (variables) => sent.push(variables), times: 5 },
  );

describe('the invitation opt-out page, from the link in an invitation', () => {
  it('stops invitations to the address with one press and no log-in, and resumes them', async () => {
    const sent: UpdateInvitationOptOutMutationVariables[] = [];
    renderApp({
      path: `/email-opt-out?token=${TOKEN}`,
      mocks: [loggedOutMock(), readMock(false), updateMock(sent)],
    });
    const panel = await screen.findByRole('region', { name: 'Invitations to this address' });
    expect(within(panel).getByText(EMAIL)).toBeTruthy();
    // Opening the link changes nothing: a mail scanner may open it too.
    expect(sent).toEqual([]);
    fireEvent.click(within(panel).getByRole('button', { name: 'Stop invitations' }));
    expect(
      await within(panel).findByText('No more invitations are sent to this address.'),
    ).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Send me invitations again' }));
    expect(await within(panel).findByRole('button', { name: 'Stop invitations' })).toBeTruthy();
    expect(sent).toEqual([
      { input: { token: TOKEN, optedOut: true } },
      { input: { token: TOKEN, optedOut: false } },
    ]);
  });

  it('speaks Dutch', async () => {
    renderApp({
      path: `/email-opt-out?token=${TOKEN}`,
      language: 'nl',
      mocks: [loggedOutMock(), readMock(true)],
    });
    const panel = await screen.findByRole('region', { name: 'Uitnodigingen op dit adres' });
    expect(within(panel).getByRole('button', { name: 'Stuur me weer uitnodigingen' })).toBeTruthy();
  });

  it('explains a link that is not valid', async () => {
    renderApp({
      path: `/email-opt-out?token=${TOKEN}`,
      mocks: [loggedOutMock(), readMock(null, 'unauthorized')],
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(/This link is not valid/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Stop invitations' })).toBeNull();
  });

  it('without a link says where to find one', async () => {
    renderApp({ path: '/email-opt-out', mocks: [loggedOutMock()] });
    expect(await screen.findByText(/with the link at the bottom of an invitation/)).toBeTruthy();
  });
});
