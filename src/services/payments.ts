/** The payment-method module's endpoints with their cache tags: a review refetches the list and members. */
import { api } from './generated/payment';
import { invalidates, LIST, providesList } from './tags';

export const paymentsApi = api.enhanceEndpoints({
  addTagTypes: ['Payment', 'Member'],
  endpoints: {
    listPaymentMethods: { providesTags: providesList('Payment') },
    paymentOpt: { invalidatesTags: invalidates([{ type: 'Payment', id: LIST }, 'Member']) },
  },
});

export const { useListPaymentMethodsQuery, usePaymentOptMutation } = paymentsApi;
