/** 系统设置 and the LZ price (SPEC.md GET/POST setting, GET price). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Ctx } from '../../context';
import { ok } from '../../http/schemas';
import { actorOf } from '../../plugins/auth';
import { getPlatformSettings, getPrice, savePlatformSettings } from './platform.service';
import { PlatformSettingsBody, PlatformSettingsResult, PriceResult } from './settings.schema';

const settingRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
  app.get(
    '/v1/admin/setting',
    {
      config: { permission: 'setting:view' },
      schema: {
        operationId: 'getSettings',
        tags: ['setting'],
        summary: '系统设置（按组）',
        response: { 200: PlatformSettingsResult },
      },
    },
    async () => ok(await getPlatformSettings(ctx)),
  );

  app.post(
    '/v1/admin/setting',
    {
      config: { permission: 'setting:update' },
      schema: {
        operationId: 'saveSettings',
        tags: ['setting'],
        summary: '保存系统设置：只带要修改的组（每组完整）；操作日志记录每个字段的 旧 → 新',
        body: PlatformSettingsBody,
        response: { 200: PlatformSettingsResult },
      },
    },
    async (req) => ok(await savePlatformSettings(ctx, actorOf(req), req.body)),
  );

  app.get(
    '/v1/admin/price',
    {
      config: { permission: ['setting:view', 'stat:view'] },
      schema: {
        operationId: 'getPrice',
        tags: ['setting'],
        summary: 'LZ 价格：当前价格与近 30 天每日价格',
        response: { 200: PriceResult },
      },
    },
    async () => ok(await getPrice(ctx)),
  );
};

export default settingRoutes;
