-- CreateEnum
CREATE TYPE "TransferKind" AS ENUM ('top_up', 'escrow_hold', 'escrow_capture', 'escrow_release', 'payout_request', 'payout_complete', 'payout_cancel', 'refund', 'chargeback', 'fee');

-- AlterTable
ALTER TABLE "ledger_accounts" ALTER COLUMN "user_id" SET NOT NULL;

-- AlterTable
ALTER TABLE "wallets" ADD COLUMN     "version" BIGINT NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "ledger_transfers" (
    "id" UUID NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "kind" "TransferKind" NOT NULL,
    "debit_account_id" UUID NOT NULL,
    "credit_account_id" UUID NOT NULL,
    "amount_cents" BIGINT NOT NULL,
    "challenge_id" UUID,
    "description" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_transfers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ledger_transfers_idempotency_key_key" ON "ledger_transfers"("idempotency_key");

-- CreateIndex
CREATE INDEX "ledger_transfers_debit_account_id_created_at_idx" ON "ledger_transfers"("debit_account_id", "created_at");

-- CreateIndex
CREATE INDEX "ledger_transfers_credit_account_id_created_at_idx" ON "ledger_transfers"("credit_account_id", "created_at");

-- CreateIndex
CREATE INDEX "ledger_transfers_kind_idx" ON "ledger_transfers"("kind");

-- AddForeignKey
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_debit_account_id_fkey" FOREIGN KEY ("debit_account_id") REFERENCES "ledger_accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_credit_account_id_fkey" FOREIGN KEY ("credit_account_id") REFERENCES "ledger_accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Hand-written: invariants the database enforces whatever the code does.
-- A transfer moves a positive amount between two different accounts.
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_amount_positive" CHECK ("amount_cents" > 0);
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_two_accounts" CHECK ("debit_account_id" <> "credit_account_id");
-- User accounts never go negative, only the external-money accounts of the platform may.
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_user_not_negative"
  CHECK ("kind" NOT IN ('user_available', 'user_frozen') OR "balance" >= 0);
