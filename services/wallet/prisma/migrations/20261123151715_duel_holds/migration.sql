-- Duels (docs/adr/0032): a hold per (challenge, staker): the owner's reward is the party "owner" (every
-- existing hold), a duel's challenged user's stake the party "challenged". At most one hold per party.
-- CreateEnum
CREATE TYPE "HoldParty" AS ENUM ('owner', 'challenged');

-- AlterTable
ALTER TABLE "escrow_holds" DROP CONSTRAINT "escrow_holds_pkey",
ADD COLUMN     "party" "HoldParty" NOT NULL DEFAULT 'owner',
ADD CONSTRAINT "escrow_holds_pkey" PRIMARY KEY ("challenge_id", "owner_id");

-- CreateIndex
CREATE UNIQUE INDEX "escrow_holds_challenge_id_party_key" ON "escrow_holds"("challenge_id", "party");
