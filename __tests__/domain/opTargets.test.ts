/**
 * Every operation-log target form the server writes is shown in Chinese (no `withdrawal#484` or
 * `manager#7 (uxtest01)` on screen); the forms are read from the server's source, so a new module's
 * target cannot be missed.
 */
import { opTargetText } from '../../domain/opTargets';
import { serverModuleMatches } from './serverSources';

describe('operation-log targets', () => {
  it('shows every target form the server writes without its English kind', () => {
    const samples = new Set<string>();
    for (const target of serverModuleMatches(/target: [`']([^`']+)[`']/g)) {
      // A template's placeholders become an id and a name, as the server fills them.
      samples.add(
        target
          .replace(/\$\{settingKey\(input\.type\)\}/, 'withdraw.1')
          .replace(/\$\{accountKey\(input\.type\)\}/, 'withdrawAccount.2')
          .replace(/#\$\{[^}]+\}/g, '#12')
          .replace(/\$\{[^}]+\}/g, 'alice'),
      );
    }
    expect(samples.size).toBeGreaterThanOrEqual(15);
    const raw = [...samples].filter((t) => /[A-Za-z]{3,}/.test(opTargetText(t).replace(/（alice）$/, '')));
    expect(raw).toEqual([]);
  });

  it('reads each form', () => {
    expect(opTargetText('withdrawal#484')).toBe('提现 #484');
    expect(opTargetText('manager#7 (uxtest01)')).toBe('管理员 #7（uxtest01）');
    expect(opTargetText('protocol#8')).toBe('玩法说明');
    expect(opTargetText('setting')).toBe('系统设置');
    expect(opTargetText('setting:withdraw.2')).toBe('提取设置');
    expect(opTargetText('somethingNew#5')).toBe('somethingNew#5');
  });
});
