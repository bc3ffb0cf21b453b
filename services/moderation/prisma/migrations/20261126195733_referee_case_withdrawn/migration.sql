-- AlterEnum
ALTER TYPE "RefereeCaseStatus" ADD VALUE 'withdrawn';
