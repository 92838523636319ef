/**
 * Every operation-log target form the server writes is shown in Chinese (no `withdrawal#484` or
 * `manager#7 (uxtest01)` on screen); the forms are read from the server's source, so a new module's
 * target cannot be missed.
 */
import { opTargetPath, opTargetText } from '../../domain/opTargets';
import { pagePaths } from '../../domain/pagePaths';
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
    expect(opTargetText('withdrawal#484', 'extract:audit')).toBe('提取 #484');
    expect(opTargetText('manager#7 (uxtest01)')).toBe('管理员 #7（uxtest01）');
    expect(opTargetText('protocol#8')).toBe('玩法说明');
    expect(opTargetText('setting')).toBe('系统设置');
    expect(opTargetText('setting:withdraw.2')).toBe('提取设置');
    expect(opTargetText('somethingNew#5')).toBe('somethingNew#5');
  });

  it('opens every target the server writes on a page of the console (a withdrawal by its row’s code)', () => {
    const pages = new Set<string>(Object.values(pagePaths));
    const unlinked: string[] = [];
    for (const target of serverModuleMatches(/target: [`']([^`']+)[`']/g)) {
      const sample = target
        .replace(/\$\{settingKey\(input\.type\)\}/, 'withdraw.2')
        .replace(/\$\{accountKey\(input\.type\)\}/, 'withdrawAccount.1')
        .replace(/#\$\{[^}]+\}/g, '#6')
        .replace(/\$\{[^}]+\}/g, 'alice');
      const path = opTargetPath(sample);
      if (path === null) unlinked.push(sample);
      else expect(pages.has(path.split('?')[0])).toBe(true);
    }
    expect(unlinked).toEqual(['withdrawal#6']);
    expect(opTargetPath('withdrawal#6', 'withdraw:audit')).toBe('withdrawLayout/withdrawListLayout?id=6');
    expect(opTargetPath('withdrawal#6', 'extract:pay')).toBe('withdrawLayout/extractListLayout?id=6');
    expect(opTargetPath('deposit#9')).toBe('depositLayout/depositListLayout?id=9');
    expect(opTargetPath('manager#7 (uxtest01)')).toBe('systemLayout/managerLayout?username=uxtest01');
    expect(opTargetPath('member#3 (10000003)')).toBe('memberLayout/memberListLayout?keyword=10000003');
    expect(opTargetPath('setting:withdraw.2')).toBe('withdrawLayout/withdrawSettingLayout?type=2');
    expect(opTargetPath('protocol#8')).toBe('descLayout/playLayout');
    expect(opTargetPath('somethingNew#5')).toBeNull();
  });
});
