-- Written by hand (docs/adr/0098): a new escrow hold in one statement instead of eleven.
-- The migration runner splits scripts into statements at every semicolon, quoted or not: the
-- body's are written \073 (octal) in an escape string, as moderation's audit trigger does.
--
-- The common case of holdReward only: the challenge's money lock (the same key as
-- lockChallengeMoney, from the challenge id as the caller wrote it), then every check before any
-- write (attempt not voided, challenge not ended, no hold yet for this challenge and party or
-- staker, the transfer key unused, the owner's wallet and both accounts there and locked in the
-- ledger's order, wallet then accounts by id, and enough available money). When one fails it
-- writes nothing and answers FALSE: the caller then runs the full transaction, which answers a
-- replay, a retaken duel stake and every refusal as before. Otherwise the hold, the transfer, both
-- balances, the wallet's version and its WalletBalanceChanged row (the caller's event with the
-- figures filled in) are written and it answers TRUE. Each statement of a VOLATILE plpgsql
-- function reads a fresh snapshot, so what it reads after the lock is what the lock protects.
CREATE FUNCTION wallet_hold_new_escrow(
  p_challenge TEXT, p_owner UUID, p_party "HoldParty", p_amount BIGINT, p_slug TEXT,
  p_challenge_name TEXT, p_attempt_key TEXT, p_live_statuses TEXT[], p_transfer_key TEXT,
  p_event_id UUID, p_topic TEXT, p_key TEXT, p_payload JSONB, p_trace_context JSONB
) RETURNS BOOLEAN LANGUAGE plpgsql VOLATILE AS E'
DECLARE
  v_challenge UUID := p_challenge::uuid\073
  v_account RECORD\073
  v_available_id UUID\073
  v_frozen_id UUID\073
  v_available BIGINT\073
  v_report RECORD\073
BEGIN
  PERFORM pg_advisory_xact_lock(720018, hashtext(p_challenge))\073
  IF p_amount <= 0
     OR EXISTS (SELECT 1 FROM escrow_voids WHERE challenge_id = v_challenge AND party = p_party
                   AND attempt_key = p_attempt_key)
     OR EXISTS (SELECT 1 FROM challenge_states WHERE challenge_id = v_challenge
                   AND NOT status = ANY (p_live_statuses))
     OR EXISTS (SELECT 1 FROM escrow_holds WHERE challenge_id = v_challenge
                   AND (party = p_party OR owner_id = p_owner))
     OR EXISTS (SELECT 1 FROM ledger_transfers WHERE idempotency_key = p_transfer_key) THEN
    RETURN FALSE\073
  END IF\073
  PERFORM 1 FROM wallets WHERE user_id = p_owner FOR UPDATE\073
  IF NOT FOUND THEN
    RETURN FALSE\073
  END IF\073
  FOR v_account IN
    SELECT id, kind::text AS kind, balance FROM ledger_accounts
     WHERE user_id = p_owner AND kind IN (''user_available'', ''user_frozen'')
     ORDER BY id FOR UPDATE
  LOOP
    IF v_account.kind = ''user_available'' THEN
      v_available_id := v_account.id\073
      v_available := v_account.balance\073
    ELSE
      v_frozen_id := v_account.id\073
    END IF\073
  END LOOP\073
  IF v_available_id IS NULL OR v_frozen_id IS NULL OR v_available < p_amount THEN
    RETURN FALSE\073
  END IF\073
  INSERT INTO escrow_holds (challenge_id, owner_id, party, amount_cents, slug, challenge_name, attempt_key)
  VALUES (v_challenge, p_owner, p_party, p_amount, p_slug, p_challenge_name, p_attempt_key)
  ON CONFLICT DO NOTHING\073
  IF NOT FOUND THEN
    RETURN FALSE\073
  END IF\073
  INSERT INTO ledger_transfers (id, idempotency_key, kind, debit_account_id, credit_account_id, amount_cents, challenge_id)
  VALUES (gen_random_uuid(), p_transfer_key, ''escrow_hold'', v_available_id, v_frozen_id, p_amount, v_challenge)\073
  UPDATE ledger_accounts
     SET balance = balance + CASE WHEN id = v_frozen_id THEN p_amount ELSE -p_amount END
   WHERE id IN (v_available_id, v_frozen_id)\073
  UPDATE wallets SET version = version + 1 WHERE user_id = p_owner
  RETURNING version,
    (SELECT balance FROM ledger_accounts WHERE id = v_available_id) AS available,
    (SELECT balance FROM ledger_accounts WHERE id = v_frozen_id) AS frozen,
    COALESCE((SELECT SUM(amount_cents) FROM payout_requests
               WHERE user_id = p_owner AND status IN (''open'', ''exported'')), 0)::bigint AS open_payouts
  INTO v_report\073
  INSERT INTO outbox_events (id, topic, key, type, payload, trace_context)
  VALUES (p_event_id, p_topic, p_key, ''WalletBalanceChanged'',
          jsonb_set(p_payload, ''{data}'', (p_payload -> ''data'') || jsonb_build_object(
            ''availableCents'', v_report.available, ''frozenCents'', v_report.frozen,
            ''openPayoutCents'', v_report.open_payouts, ''version'', v_report.version)),
          p_trace_context)\073
  RETURN TRUE\073
END'
