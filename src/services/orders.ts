/**
 * The orders' endpoints: the list and ship/complete/cancel. A cancel refunds the payment and puts the
 * stock back, so it refetches the products, the balances and the bills too.
 */
import { api } from './generated/order';
import { invalidates, LIST, MONEY_MOVED, providesList } from './tags';

export const ordersApi = api.enhanceEndpoints({
  addTagTypes: ['Order', 'Product', ...MONEY_MOVED],
  endpoints: {
    listOrders: { providesTags: providesList('Order') },
    orderOpt: { invalidatesTags: invalidates([{ type: 'Order', id: LIST }, 'Product', ...MONEY_MOVED]) },
  },
});

export const { useListOrdersQuery, useOrderOptMutation } = ordersApi;
