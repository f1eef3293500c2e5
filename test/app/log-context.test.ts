import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { logContextMixin, setLogContext } from '../../src/lib/log-context.js';
import { captureLogLines } from '../helpers/log-capture.js';

function capture() {
  const { lines, stream } = captureLogLines();
  return { lines, logger: pino({ mixin: logContextMixin }, stream) };
}

describe('log context (pino mixin)', () => {
  it('adds the fields to the lines of the logger it was set on and of its children, not its siblings', () => {
    const { lines, logger } = capture();
    const keyed = logger.child({ reqId: 'a' });
    const sibling = logger.child({ reqId: 'b' });
    setLogContext(keyed, { apiKeyId: 'k1', userId: 'u1' });

    keyed.info('keyed');
    keyed.child({ step: 'inner' }).info('grandchild');
    sibling.info('sibling');
    logger.info('root');

    expect(lines.find((line) => line.msg === 'keyed')).toMatchObject({ reqId: 'a', apiKeyId: 'k1', userId: 'u1' });
    expect(lines.find((line) => line.msg === 'grandchild')).toMatchObject({ reqId: 'a', step: 'inner', apiKeyId: 'k1' });
    expect(lines.find((line) => line.msg === 'sibling')).not.toHaveProperty('apiKeyId');
    expect(lines.find((line) => line.msg === 'root')).not.toHaveProperty('apiKeyId');
  });

  it('lets fields passed with a line win, and never lets a line change the stored context', () => {
    const { lines, logger } = capture();
    const keyed = logger.child({});
    setLogContext(keyed, { userId: 'u1' });

    keyed.info({ userId: 'explicit' }, 'first');
    keyed.info('second');

    expect(lines[0]).toMatchObject({ userId: 'explicit' });
    expect(lines[1]).toMatchObject({ userId: 'u1' });
  });
});
