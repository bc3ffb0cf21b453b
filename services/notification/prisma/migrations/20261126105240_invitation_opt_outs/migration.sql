-- CreateTable
CREATE TABLE "invitation_opt_outs" (
    "email" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invitation_opt_outs_pkey" PRIMARY KEY ("email")
);

-- CreateIndex
CREATE INDEX "users_email_idx" ON "users"("email");
