/**
 * Demo money for `npm start`, through the real flow: each demo user with an empty history tops
 * up by card in the payment sandbox (checkout paid, webhook back through the gateway), and alice
 * asks for a payout, so the wallet, the moderator's payouts and the money statistics show
 * something. Re-running changes nothing once a user has any movement.
 */
import { setTimeout as sleep } from 'node:timers/promises';

const TOP_UPS = { alice: 15_000, bob: 5_000, rita_referee: 2_500, mo_moderator: 0, ada_admin: 0 };

async function call(gatewayUrl, token, query, variables = {}) {
  const response = await fetch(`${gatewayUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = await response.json();
  if (body.errors?.length) throw new Error(body.errors[0].message);
  return body.data;
}

/** The wallet opens when wallet has consumed UserRegistered: wait for it. */
async function historyLength(gatewayUrl, token) {
  for (let attempt = 0; attempt < 60; attempt += 1) {
    const data = await call(
      gatewayUrl,
      token,
      '{ getWalletTransactions(itemsPerPage: 1) { status { success identifier } pagination { totalCount } } }',
    );
    const result = data.getWalletTransactions;
    if (result.status.success) return result.pagination.totalCount;
    await sleep(500);
  }
  throw new Error('the demo wallet did not open within 30 s');
}

async function topUp(gatewayUrl, token, amount) {
  const { InitializePayment: started } = await call(
    gatewayUrl,
    token,
    `mutation($input: InitializePaymentInput!) { InitializePayment(input: $input) {
      status { success message } payment_url } }`,
    { input: { amount, originUrl: '/wallet' } },
  );
  if (!started.status.success) throw new Error(started.status.message);
  // What pressing "Pay" on the checkout page does.
  const response = await fetch(started.payment_url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'action=paid',
    redirect: 'manual',
  });
  if (response.status !== 303) throw new Error(`the sandbox answered ${response.status}`);
}

export async function seedDemoMoney({ gatewayUrl, accounts }) {
  for (const account of accounts) {
    const amount = TOP_UPS[account.username] ?? 0;
    if (!amount || (await historyLength(gatewayUrl, account.token)) > 0) continue;
    await topUp(gatewayUrl, account.token, amount);
    console.log(
      `demo money  ${account.username.padEnd(14)} topped up €${(amount / 100).toFixed(2)}`,
    );
    if (account.username !== 'alice') continue;
    await call(
      gatewayUrl,
      account.token,
      `mutation($input: PaymentProfileInput!) { updateProfilePaymentInformation(input: $input) { status { success } } }`,
      {
        input: {
          paymentName: 'Alice Demo',
          paymentAccountNumber: 'NL02ABNA0123456789',
          paymentBic: 'ABNANL2A',
          paymentAddress: 'Damrak 1',
          paymentPostalCode: '1012 LG',
          paymentCity: 'Amsterdam',
          paymentCountryCode: 'NL',
          phoneNumber: '+31 6 12345678',
        },
      },
    );
    // The webhook may land a moment after the redirect: wait for the money before asking it out.
    for (let attempt = 0; attempt < 40; attempt += 1) {
      const { payoutRequest } = await call(
        gatewayUrl,
        account.token,
        'mutation { payoutRequest(input: { amount: 2500 }) { status { success identifier } } }',
      );
      if (payoutRequest.status.success) break;
      if (payoutRequest.status.identifier !== 'insufficient_funds')
        throw new Error(payoutRequest.status.identifier);
      await sleep(250);
    }
    console.log('demo money  alice          asked for a €25.00 payout');
  }
}
