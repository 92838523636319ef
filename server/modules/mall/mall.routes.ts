/** The mall: products with their SKU sets, and orders (DOMAIN.md §3 Mall; SPEC.md product/*, order/*). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Ctx } from '../../context';
import { ExportCompression, ExportFileResponse } from '../../export/export';
import { sendExportOf } from '../../export/send';
import { ok, OkNull } from '../../http/schemas';
import { actorOf } from '../../plugins/auth';
import { OrderExportQuery, OrderListQuery, OrderListResult, OrderOptBody, OrderOptResult } from './orders.schema';
import { listOrders, optOrder } from './orders.service';
import {
  ProductBody,
  ProductInfoQuery,
  ProductInfoResult,
  ProductListQuery,
  ProductListResult,
  ProductOperateBody,
  ProductOperateResult,
  ProductSaveResult,
  SkuBody,
} from './products.schema';
import { listProducts, operateProducts, productInfo, saveProduct, saveSkus } from './products.service';

const mallRoutes: FastifyPluginAsyncTypebox<{ ctx: Ctx }> = async (app, { ctx }) => {
  app.get(
    '/v1/admin/product/list',
    {
      config: { permission: 'product:view' },
      schema: {
        operationId: 'listProducts',
        tags: ['product'],
        summary: '商品列表（价格为最低规格价，库存与销量为各规格之和）',
        querystring: ProductListQuery,
        response: { 200: ProductListResult },
      },
    },
    async (req) => ok(await listProducts(ctx, req.query)),
  );

  app.get(
    '/v1/admin/product/info',
    {
      config: { permission: 'product:view' },
      schema: {
        operationId: 'productInfo',
        tags: ['product'],
        summary: '商品详情（含规格与明细）',
        querystring: ProductInfoQuery,
        response: { 200: ProductInfoResult },
      },
    },
    async (req) => ok(await productInfo(ctx, req.query.productId)),
  );

  app.post(
    '/v1/admin/product',
    {
      config: { permission: 'product:edit' },
      schema: {
        operationId: 'saveProduct',
        tags: ['product'],
        summary: '新增商品，或带 id 修改商品（新商品为下架状态）',
        body: ProductBody,
        response: { 200: ProductSaveResult },
      },
    },
    async (req) => ok(await saveProduct(ctx, actorOf(req), req.body)),
  );

  app.post(
    '/v1/admin/product/sku',
    {
      config: { permission: 'product:edit' },
      schema: {
        operationId: 'saveProductSkus',
        tags: ['product'],
        summary: '设置商品规格（替换整套规格明细）',
        body: SkuBody,
        response: { 200: OkNull },
      },
    },
    async (req) => ok(await saveSkus(ctx, actorOf(req), req.body)),
  );

  app.post(
    '/v1/admin/product/operate',
    {
      config: { permission: 'product:operate' },
      schema: {
        operationId: 'operateProducts',
        tags: ['product'],
        summary: '商品上架、下架或删除（逐个返回结果）',
        body: ProductOperateBody,
        response: { 200: ProductOperateResult },
      },
    },
    async (req) => ok(await operateProducts(ctx, actorOf(req), req.body)),
  );

  app.get(
    '/v1/admin/order/list',
    {
      config: { permission: 'order:view' },
      schema: {
        operationId: 'listOrders',
        tags: ['order'],
        summary: '商城订单',
        querystring: OrderListQuery,
        response: { 200: OrderListResult },
      },
    },
    async (req) => ok(await listOrders(ctx, req.query)),
  );

  app.post(
    '/v1/admin/order/opt',
    {
      config: { permission: 'order:opt', stepUp: true },
      schema: {
        operationId: 'orderOpt',
        tags: ['order'],
        summary: '订单发货、完成或取消（取消退款并退回库存）',
        body: OrderOptBody,
        response: { 200: OrderOptResult },
      },
    },
    async (req) => ok(await optOrder(ctx, actorOf(req), req.body)),
  );

  app.get(
    '/v1/admin/order/export',
    {
      config: { permission: 'order:export' },
      compress: ExportCompression,
      schema: {
        operationId: 'exportOrders',
        tags: ['order'],
        summary: '导出商城订单（与列表相同的筛选，全部行；xlsx 或 format=csv）',
        querystring: OrderExportQuery,
        response: ExportFileResponse,
      },
    },
    async (req, reply) => {
      const q = req.query;
      return sendExportOf(reply, ctx, 'order', q, q.format);
    },
  );
};

export default mallRoutes;
