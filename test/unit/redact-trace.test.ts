import { describe, expect, it } from 'vitest';
import { maskCommandLine } from '../../src/redact-command.js';
import { shieldFor } from '../../src/shield.js';

// The mask every printed output line goes through (summary, read, search).
const shield = shieldFor();
const redactLine = (line: string): string => shield(1, line);

// Issue 20 #5: a `set -x` trace prints each command line as the shell runs it; the secrets in
// it are masked as `list` masks the same command line.
const TRACES: readonly (readonly [string, string])[] = [
  ['+ MYSQL_PWD=Xq7vR2mP9z mysql -u root db', 'Xq7vR2mP9z'],
  ['+ mysql -uroot -pXq7vR2mP9z db', 'Xq7vR2mP9z'],
  ['+ curl -su admin:Xq7vR2mP9z https://example.test/api', 'Xq7vR2mP9z'],
  ['+ sshpass -p Xq7vR2mP9z ssh deploy@host', 'Xq7vR2mP9z'],
  ['+ redis-cli -h cache -a Xq7vR2mP9z PING', 'Xq7vR2mP9z'],
  ['+ docker login -u bot -p Xq7vR2mP9z registry.test', 'Xq7vR2mP9z'],
  ['++ export GH_TOKEN=plainword', 'plainword'],
  ['+++ psql --password=hunter2hunter2 -h db', 'hunter2hunter2'],
  ['+ PGPASSWORD=s3cret pg_dump app', 's3cret'],
  ['+(deploy.sh:12): MYSQL_PWD=Xq7vR2mP9z mysql', 'Xq7vR2mP9z'],
  ['+deploy.sh:12: sshpass -p Xq7vR2mP9z ssh h', 'Xq7vR2mP9z'],
];

describe('set -x traces', () => {
  it.each(TRACES)('masks %s', (line, secret) => {
    expect(redactLine(line)).not.toContain(secret);
    // As list masks it.
    expect(maskCommandLine(line.replace(/^\++ /, ''))).not.toContain(secret);
  });

  it('leaves lines that are not traces as output masking has them', () => {
    for (const line of [
      'mysql -pXq7vR2mP9z is how the docs put it',
      '+ 12 tests passed',
      '+added PGPASSWORD=s3cret',
      '- mysql -pabc',
    ])
      expect(redactLine(line)).toBe(line);
  });

  it('keeps a trace without secrets as it is', () => {
    for (const line of [
      '+ npm test',
      '+ curl -s https://example.test',
      '++ echo TOKEN_COUNT=5',
      '+ sshpass -p "$PASS" ssh h',
    ])
      expect(redactLine(line)).toBe(line);
  });
});
