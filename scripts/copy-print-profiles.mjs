// Copies the committed press and sRGB profiles (src/print/profiles) next to the compiled print
// module in dist/, where it reads them at run time.
import { cpSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
cpSync(path.join(root, 'src', 'print', 'profiles'), path.join(root, 'dist', 'print', 'profiles'), { recursive: true });
