// `npm run admin -- grant <email>` / `npm run admin -- revoke <email>`: sets an account's role on
// the configured database (DATABASE_URL, or the embedded one under DATA_DIR). The embedded
// directory admits one process: while a server holds it, the command changes nothing, says so and
// exits 1. Applies pending migrations first, as the server does.
// Exit codes: 0 done, 1 refused or failed (unknown email, last administrator, database), 2 usage.
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { DirectoryLockedError } from '../db/directory-lock.js';
import { migrate } from '../db/migrator.js';
import { HttpError } from '../errors.js';
import { createRepositories } from '../repositories/index.js';
import { createAdminService } from '../services/admin.js';
import { normalizeEmail } from '../services/auth.js';

/** What to do instead: the grant would be lost (or the directory corrupted) if it went ahead. */
function lockedMessage(error: DirectoryLockedError): string {
  const { holder, dataDir } = error;
  if (holder.port === null) return `${error.message} Wait for it to finish, then run the command again.`;
  return (
    `Nothing was changed: the embedded database ${dataDir} is open in a running server (pid ${holder.pid}, port ${holder.port}). ` +
    'Stop the server and run the command again, or, signed in as an administrator, change the role through the running server: ' +
    `PUT /admin/users/:id with {"role":"admin"} or {"role":"user"} on port ${holder.port}.`
  );
}

const USAGE = 'Usage: npm run admin -- grant <email> | npm run admin -- revoke <email>';
const ROLES = { grant: 'admin', revoke: 'user' } as const;

const [command, email, ...rest] = process.argv.slice(2);
if ((command !== 'grant' && command !== 'revoke') || email === undefined || rest.length > 0) {
  console.error(USAGE);
  process.exitCode = 2;
} else {
  try {
    const config = loadConfig();
    const normalized = normalizeEmail(email);
    const database = await openDatabase(config.database, {}, { command: 'npm run admin' });
    try {
      await database.withSession((session) => migrate(session));
      const admin = createAdminService(createRepositories(database).users, config.jwtSecret);
      const user = await admin.setRoleByEmail(normalized, ROLES[command]);
      console.log(`${user.email} is now ${user.role === 'admin' ? 'an administrator' : 'a regular user'}.`);
    } finally {
      await database.close();
    }
  } catch (error) {
    if (error instanceof ConfigError) console.error(error.message);
    else if (error instanceof DirectoryLockedError) console.error(lockedMessage(error));
    else if (error instanceof HttpError) console.error(error.statusCode === 404 ? `No account has the email ${email}.` : error.message);
    else console.error(`The command failed: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
