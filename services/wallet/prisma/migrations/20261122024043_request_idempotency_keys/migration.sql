-- AlterTable
ALTER TABLE "top_up_payments" ADD COLUMN     "checkout_url" TEXT,
ADD COLUMN     "request_key" TEXT;

-- AlterTable
ALTER TABLE "payout_requests" ADD COLUMN     "request_key" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "top_up_payments_request_key_key" ON "top_up_payments"("request_key");

-- CreateIndex
CREATE UNIQUE INDEX "payout_requests_request_key_key" ON "payout_requests"("request_key");
