/** The second factor's calls (issue 15): the login's code step, binding, unbinding, step-up, reset. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Ctx } from '../../context';
import { OkNull, ok } from '../../http/schemas';
import { actorOf } from '../../plugins/auth';
import {
  LoginCodeBody,
  LoginCodeResult,
  TotpEnableBody,
  TotpEnableResult,
  TotpProofBody,
  TotpResetBody,
  TotpSetupResult,
  TotpStatusResult,
} from './auth.schema';
import { loginWithCode } from './auth.service';
import { beginBinding, confirmBinding, resetBinding, stepUp, totpStatus, unbind } from './totp.service';

const tags = ['auth'];

const totpRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
  app.post(
    '/v1/admin/user/login/totp',
    {
      config: { auth: 'public' },
      schema: {
        operationId: 'loginWithCode',
        tags,
        summary: '登录第二步：身份验证器验证码或恢复码',
        body: LoginCodeBody,
        response: { 200: LoginCodeResult },
      },
    },
    async (req) =>
      ok(await loginWithCode(ctx, { ...req.body, ip: req.ip, userAgent: String(req.headers['user-agent'] ?? '') })),
  );

  app.get(
    '/v1/admin/user/totp',
    {
      config: { auth: 'session', beforeTotp: true },
      schema: { operationId: 'getTotpStatus', tags, summary: '身份验证器状态', response: { 200: TotpStatusResult } },
    },
    async (req) => ok(await totpStatus(ctx, req.manager!.id)),
  );

  app.post(
    '/v1/admin/user/totp/setup',
    {
      config: { auth: 'session', beforeTotp: true },
      schema: {
        operationId: 'setupTotp',
        tags,
        summary: '绑定身份验证器第一步：生成密钥与二维码',
        response: { 200: TotpSetupResult },
      },
    },
    async (req) => ok(await beginBinding(ctx, actorOf(req))),
  );

  app.post(
    '/v1/admin/user/totp/enable',
    {
      config: { auth: 'session', beforeTotp: true },
      schema: {
        operationId: 'enableTotp',
        tags,
        summary: '绑定身份验证器第二步：输入验证码确认，返回恢复码（仅显示一次）',
        body: TotpEnableBody,
        response: { 200: TotpEnableResult },
      },
    },
    async (req) => ok(await confirmBinding(ctx, actorOf(req), req.manager!.sessionId, req.body.code)),
  );

  app.post(
    '/v1/admin/user/totp/disable',
    {
      config: { auth: 'session' },
      schema: {
        operationId: 'disableTotp',
        tags,
        summary: '解绑身份验证器（验证码或恢复码）',
        body: TotpProofBody,
        response: { 200: OkNull },
      },
    },
    async (req) => {
      await unbind(ctx, actorOf(req), req.body);
      return ok(null);
    },
  );

  app.post(
    '/v1/admin/user/totp/verify',
    {
      config: { auth: 'session' },
      schema: {
        operationId: 'verifyTotp',
        tags,
        summary: '二次验证：资金操作前输入验证码',
        body: TotpProofBody,
        response: { 200: OkNull },
      },
    },
    async (req) => {
      await stepUp(ctx, actorOf(req), req.manager!.sessionId, req.body);
      return ok(null);
    },
  );

  app.post(
    '/v1/admin/user/totp/reset',
    {
      config: { permission: 'manager:create', stepUp: true },
      schema: {
        operationId: 'resetTotp',
        tags,
        summary: '重置管理员的身份验证器（超级管理员）',
        body: TotpResetBody,
        response: { 200: OkNull },
      },
    },
    async (req) => {
      await resetBinding(ctx, { ...actorOf(req), isSuper: req.manager!.isSuper }, req.body.id);
      return ok(null);
    },
  );
};

export default totpRoutes;
