// Translates Prisma's unique-constraint failure (P2002) into the domain's UniqueViolationError,
// so any repository can map it and the service layer decides what it means (usually 409).
import { OwnerMissingError, UniqueViolationError } from '../errors.js';

interface PrismaKnownError {
  code?: unknown;
  meta?: { target?: unknown; driverAdapterError?: { cause?: { constraint?: { fields?: unknown } } } };
}

const prismaCode = (error: unknown) => (typeof error === 'object' && error !== null ? (error as PrismaKnownError).code : undefined);

function uniqueViolationFields(error: unknown): string[] {
  const meta = (error as PrismaKnownError).meta;
  const fields = meta?.driverAdapterError?.cause?.constraint?.fields ?? meta?.target;
  return Array.isArray(fields) ? fields.map(String) : typeof fields === 'string' ? [fields] : [];
}

/** Runs a write; a unique violation becomes UniqueViolationError, anything else passes through. */
export async function mapUniqueViolation<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (prismaCode(error) === 'P2002') throw new UniqueViolationError(uniqueViolationFields(error));
    throw error;
  }
}

/**
 * Runs an insert of a row that belongs to another; a foreign-key failure (P2003: that row was
 * deleted meanwhile) becomes missing(), by default OwnerMissingError (the account is gone).
 */
export async function mapOwnerMissing<T>(write: () => Promise<T>, missing: () => Error = () => new OwnerMissingError()): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (prismaCode(error) === 'P2003') throw missing();
    throw error;
  }
}
