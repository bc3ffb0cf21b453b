-- Payouts already written into a SEPA file are 'exported' (a new enum value, so its own
-- migration: PostgreSQL cannot use a value added in the same transaction).
UPDATE "payout_requests" SET "status" = 'exported' WHERE "status" = 'open' AND "export_batch" IS NOT NULL;
