-- CreateEnum
CREATE TYPE "HoldStatus" AS ENUM ('held', 'captured', 'released');

-- CreateEnum
CREATE TYPE "PaymentStatus" AS ENUM ('open', 'paid', 'failed', 'canceled', 'expired');

-- CreateEnum
CREATE TYPE "PayoutStatus" AS ENUM ('open', 'done');

-- CreateTable
CREATE TABLE "escrow_holds" (
    "challenge_id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "amount_cents" BIGINT NOT NULL,
    "slug" TEXT NOT NULL,
    "challenge_name" TEXT NOT NULL,
    "status" "HoldStatus" NOT NULL DEFAULT 'held',
    "payee_id" UUID,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settled_at" TIMESTAMP(3),

    CONSTRAINT "escrow_holds_pkey" PRIMARY KEY ("challenge_id")
);

-- CreateTable
CREATE TABLE "challenge_states" (
    "challenge_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "owner_id" UUID NOT NULL,
    "reward_cents" BIGINT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "challenge_states_pkey" PRIMARY KEY ("challenge_id")
);

-- CreateTable
CREATE TABLE "top_up_payments" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "amount_cents" BIGINT NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_payment_id" TEXT,
    "status" "PaymentStatus" NOT NULL DEFAULT 'open',
    "origin_url" TEXT NOT NULL,
    "refunded_cents" BIGINT NOT NULL DEFAULT 0,
    "charged_back_cents" BIGINT NOT NULL DEFAULT 0,
    "unrecovered_cents" BIGINT NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "paid_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "top_up_payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_profiles" (
    "user_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "iban" TEXT NOT NULL,
    "bic" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "postal_code" TEXT NOT NULL,
    "city" TEXT NOT NULL,
    "country_code" TEXT NOT NULL,
    "phone_number" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "payment_profiles_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "payout_requests" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "amount_cents" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "iban" TEXT NOT NULL,
    "bic" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "postal_code" TEXT NOT NULL,
    "city" TEXT NOT NULL,
    "country_code" TEXT NOT NULL,
    "status" "PayoutStatus" NOT NULL DEFAULT 'open',
    "export_batch" TEXT,
    "exported_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMP(3),
    "completed_by" UUID,

    CONSTRAINT "payout_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "escrow_holds_status_created_at_idx" ON "escrow_holds"("status", "created_at");

-- CreateIndex
CREATE INDEX "challenge_states_status_idx" ON "challenge_states"("status");

-- CreateIndex
CREATE UNIQUE INDEX "top_up_payments_provider_payment_id_key" ON "top_up_payments"("provider_payment_id");

-- CreateIndex
CREATE INDEX "top_up_payments_user_id_created_at_idx" ON "top_up_payments"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "payout_requests_status_created_at_idx" ON "payout_requests"("status", "created_at");

-- CreateIndex
CREATE INDEX "payout_requests_user_id_created_at_idx" ON "payout_requests"("user_id", "created_at");

-- Amounts are positive cents, whatever the code does
ALTER TABLE "escrow_holds" ADD CONSTRAINT "escrow_holds_amount_positive" CHECK ("amount_cents" > 0);
ALTER TABLE "top_up_payments" ADD CONSTRAINT "top_up_payments_amount_positive" CHECK ("amount_cents" > 0);
ALTER TABLE "payout_requests" ADD CONSTRAINT "payout_requests_amount_positive" CHECK ("amount_cents" > 0);
ALTER TABLE "challenge_states" ADD CONSTRAINT "challenge_states_reward_positive" CHECK ("reward_cents" > 0);
