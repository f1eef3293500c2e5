// Account rules: normalisation, field checks, hashing and credential checks. Knows nothing of HTTP
// beyond the status-bearing errors it throws.
import { createId } from '../lib/ids.js';
import { badRequest, conflict, MESSAGES, UniqueViolationError, unauthorized } from '../errors.js';
import { checkPassword, type PasswordHasher } from '../lib/passwords.js';
import { normalizeName } from '../lib/text.js';
import type { User, UserRepository } from '../repositories/users.js';

export const EMAIL_MAX_LENGTH = 254;
export const NAME_MAX_LENGTH = 100;

// The WHATWG definition of a valid email address (what <input type=email> accepts), lower case.
const EMAIL_PATTERN =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

const PASSWORD_MESSAGES = {
  'too-short': 'must be 8 to 72 bytes long in UTF-8.',
  'too-long': 'must be 8 to 72 bytes long in UTF-8.',
  'nul-byte': 'must not contain a NUL character.',
  malformed: 'must not contain unpaired surrogate characters.',
} as const;

export function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) {
    throw badRequest(`email must be a valid email address of at most ${EMAIL_MAX_LENGTH} characters.`);
  }
  return email;
}

/** 400 naming `field` unless the password can be hashed faithfully (see lib/passwords.ts). */
export function assertPassword(password: string, field = 'password'): void {
  const problem = checkPassword(password);
  if (problem) throw badRequest(`${field} ${PASSWORD_MESSAGES[problem]}`);
}

export function createAuthService(users: UserRepository, passwords: PasswordHasher) {
  return {
    async register(input: { email: string; password: string; name: string }): Promise<User> {
      const email = normalizeEmail(input.email);
      assertPassword(input.password);
      const name = normalizeName(input.name, NAME_MAX_LENGTH);
      const passwordHash = await passwords.hash(input.password);
      try {
        return await users.create({ id: createId(), email, name, passwordHash });
      } catch (error) {
        if (error instanceof UniqueViolationError) throw conflict(MESSAGES.emailTaken);
        throw error;
      }
    },

    /** Unknown email and wrong password fail alike, in about the same time. */
    async login(input: { email: string; password: string }): Promise<User> {
      const email = normalizeEmail(input.email);
      assertPassword(input.password);
      const found = await users.findWithSecret({ email });
      const valid = found
        ? await passwords.verify(input.password, found.passwordHash)
        : await passwords.verifyAgainstDummy(input.password);
      if (!found || !valid) throw unauthorized(MESSAGES.invalidCredentials);
      const { passwordHash: _secret, ...user } = found;
      return user;
    },

    findUser(id: string): Promise<User | null> {
      return users.findById(id);
    },
  };
}
