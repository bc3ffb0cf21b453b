-- ADR 0072: a hold belongs to an attempt (a duel's acceptance). A release that finds nothing of
-- its attempt leaves a void behind, so that a late hold of that attempt is refused. Staff resolve
-- stray holds from the reconciliation. Wallet knows each challenge's expiration date.
-- AlterTable
ALTER TABLE "escrow_holds" ADD COLUMN     "attempt_key" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "cycle" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "resolution_reason" TEXT,
ADD COLUMN     "resolved_by" UUID;

-- AlterTable
ALTER TABLE "challenge_states" ADD COLUMN     "expires_at" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "escrow_voids" (
    "challenge_id" UUID NOT NULL,
    "party" "HoldParty" NOT NULL,
    "attempt_key" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "escrow_voids_pkey" PRIMARY KEY ("challenge_id","party","attempt_key")
);

-- Every hold voided so far is a void of the attempt '' (the only one there was).
INSERT INTO "escrow_voids" ("challenge_id", "party", "attempt_key")
SELECT "challenge_id", "party", '' FROM "escrow_holds" WHERE "voided_at" IS NOT NULL AND "status" = 'released';
