-- Per-side referee cases (docs/adr/0070): a case per (challenge, performer), so both sides of a
-- duel can be in referee at once. Existing cases keep performer_id NULL: moderation never
-- recorded which side a duel's case was about and cannot tell a duel from a solo challenge here.
-- Such a case is decided as before (challenge applies it to its one disputed side, or to nothing
-- when that is ambiguous), and is given to the other party when that party's side is disputed.

-- DropIndex
DROP INDEX "referee_cases_challenge_id_key";

-- AlterTable
ALTER TABLE "referee_cases" ADD COLUMN     "performer_id" UUID;

-- CreateIndex
CREATE UNIQUE INDEX "referee_cases_challenge_id_performer_id_key" ON "referee_cases"("challenge_id", "performer_id");
