-- CreateTable
CREATE TABLE "challenge_likes" (
    "challenge_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "unliked_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "liked_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "challenge_likes_pkey" PRIMARY KEY ("challenge_id","user_id")
);

-- CreateTable
CREATE TABLE "challenge_comments" (
    "id" UUID NOT NULL,
    "challenge_id" UUID NOT NULL,
    "author_id" UUID NOT NULL,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "challenge_comments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "known_follows" (
    "follower_id" UUID NOT NULL,
    "followee_id" UUID NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "known_follows_pkey" PRIMARY KEY ("follower_id","followee_id")
);

-- CreateIndex
CREATE INDEX "challenge_likes_user_id_liked_at_idx" ON "challenge_likes"("user_id", "liked_at" DESC);

-- CreateIndex
CREATE INDEX "challenge_comments_challenge_id_created_at_id_idx" ON "challenge_comments"("challenge_id", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "challenges_visibility_created_at_id_idx" ON "challenges"("visibility", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "challenges_visibility_challenge_type_created_at_id_idx" ON "challenges"("visibility", "challenge_type", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "challenges_owner_id_created_at_idx" ON "challenges"("owner_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "challenges_challenged_user_id_created_at_idx" ON "challenges"("challenged_user_id", "created_at" DESC);
