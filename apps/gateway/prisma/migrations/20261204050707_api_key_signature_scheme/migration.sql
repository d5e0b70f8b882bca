-- CreateEnum
CREATE TYPE "SignatureScheme" AS ENUM ('body', 'v2');

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "signature_scheme" "SignatureScheme" NOT NULL DEFAULT 'body';
