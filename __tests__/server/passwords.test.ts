/** Manager password policy (NIST SP 800-63B / OWASP ASVS): the shared rules, the common list, the start-up check. */
import fs from 'node:fs';
import path from 'node:path';
import { isStrongPassword, passwordProblem, PASSWORD_RULE_TEXT } from '../../domain/managers';
import { ConfigError, loadConfig } from '../../server/config';
import {
  commonPasswords,
  hashPassword,
  isCommonPassword,
  managerPasswordProblem,
  randomPassword,
  verifyPassword,
} from '../../server/passwords';
import { buildCommonPasswords } from '../../scripts/common-passwords';

describe('manager password policy', () => {
  it.each([
    ['Passw0rd', '密码至少10位'],
    ['short', '密码至少10位'],
    ['x'.repeat(65), '密码不能超过64位'],
    ['a\tb\tc\td\te\tf', '密码不能包含控制字符'],
    ['line\nbreak and more', '密码不能包含控制字符'],
    ['c1\u0085control character', '密码不能包含控制字符'],
    ['lone \ud800 surrogate', '密码不能包含控制字符'],
    ['zzzzzzzzzzzz', '密码过于常见，请换一个'],
    ['abcabcabcabc', '密码过于常见，请换一个'],
    ['          ', '密码过于常见，请换一个'],
  ])('refuses %j: %s', (p, msg) => {
    expect(passwordProblem(p)).toBe(msg);
    expect(managerPasswordProblem(p)).toBe(msg);
  });

  it.each([
    'correct horse battery',
    'Pa$$ w0rd #42!',
    'only lowercase letters',
    '0123 9876 5555 ab',
    '这是一个足够长的中文密码',
    'abcdefgh'.repeat(8),
    '🐱🐶🐭🐹🐰🦊🐻🐼🐨🐯',
  ])('accepts %j: no composition rules, any printable characters and spaces', (p) => {
    expect(managerPasswordProblem(p)).toBeNull();
    expect(isStrongPassword(p)).toBe(true);
  });

  it('counts characters, not UTF-16 units: ten emoji are ten characters, sixty-four CJK fit', () => {
    expect(passwordProblem('🐱🐶🐭🐹🐰🦊🐻🐼🐨')).toBe('密码至少10位');
    expect(passwordProblem('密'.repeat(32) + '码'.repeat(32))).toBeNull();
  });

  it('names the field it is about', () => {
    expect(passwordProblem('short', { field: '新密码' })).toBe('新密码至少10位');
    expect(managerPasswordProblem('Password123', { field: '新密码' })).toBe('新密码过于常见，请换一个');
  });

  it('refuses the user name as the password, in any case', () => {
    expect(passwordProblem('Cashier001', { username: 'cashier001' })).toBe('密码不能与用户名相同');
    expect(passwordProblem('CASHIER001', { username: ' Cashier001 ' })).toBe('密码不能与用户名相同');
    expect(isStrongPassword('Cashier001', 'cashier001')).toBe(false);
    expect(isStrongPassword('Cashier001x', 'cashier001')).toBe(true);
  });

  it('refuses common passwords whatever their case, which only the server checks', () => {
    for (const p of [
      'Password123',
      'PASSWORD123',
      'Passw0rd!!',
      'admin@2024',
      'Admin2026!',
      'qwertyuiop',
      '1q2w3e4r5t',
      'iloveyou520',
      'woaini1314',
      'P@ssw0rd123',
      '1234567890',
      'Welcome123',
    ]) {
      expect([p, isCommonPassword(p)]).toEqual([p, true]);
      expect(managerPasswordProblem(p)).toBe('密码过于常见，请换一个');
      expect(passwordProblem(p)).toBeNull();
    }
  });

  it('ships a list of thousands of entries, under 100 KB, that the script in scripts/ reproduces', () => {
    const file = path.join(__dirname, '../../server/common-passwords.txt');
    expect(fs.statSync(file).size).toBeLessThanOrEqual(102_400);
    expect(commonPasswords().size).toBeGreaterThan(3000);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${buildCommonPasswords().join('\n')}\n`);
    for (const p of commonPasswords()) expect(p).toBe(p.toLowerCase());
  });

  it('generates random passwords that pass the policy (and the members’ letters-and-digits rule)', () => {
    for (let i = 0; i < 200; i++) {
      const p = randomPassword();
      expect(managerPasswordProblem(p)).toBeNull();
      expect(p).toMatch(/^(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d]{16}$/);
    }
  });

  it('hashes in NFKC form: composed and decomposed spellings are one password', async () => {
    const composed = 'Café au lait 2026';
    const decomposed = 'Cafe\u0301 au lait 2026';
    const stored = await hashPassword(composed);
    expect(await verifyPassword(stored, decomposed)).toBe(true);
    expect(await verifyPassword(stored, 'Cafe au lait 2026')).toBe(false);
  });

  it('says the same rule in the dialogs', () => {
    expect(PASSWORD_RULE_TEXT).toContain('10-64');
  });
});

describe('ADMIN_PASSWORD at start-up', () => {
  it.each(['Admin12345', 'password123', 'short', 'admin\u0000admin1234', 'admin'])('refuses %j', (p) => {
    expect(() => loadConfig({ ADMIN_PASSWORD: p }, '/tmp/lz')).toThrow(ConfigError);
    expect(() => loadConfig({ ADMIN_PASSWORD: p }, '/tmp/lz')).toThrow(/ADMIN_PASSWORD/);
  });

  it.each(['correct horse battery', 'Ops-Team! 2026 #1', '管理员的长密码一二三四'])('accepts %j', (p) => {
    expect(loadConfig({ ADMIN_PASSWORD: p }, '/tmp/lz').adminPassword).toBe(p);
  });
});
