/** The products' endpoints: the list, one product, the editor's two saves and the shelf batch. */
import { api as productApi } from './generated/product';
import { invalidates, LIST, providesList } from './tags';

const PRODUCTS = { type: 'Product' as const, id: LIST };
const one = (id: number) => ({ type: 'Product' as const, id });

export const productsApi = productApi.enhanceEndpoints({
  addTagTypes: ['Product'],
  endpoints: {
    listProducts: { providesTags: providesList('Product') },
    productInfo: { providesTags: (_r, _e, arg) => [one(arg.productId)] },
    saveProduct: {
      invalidatesTags: invalidates((arg: { body: { id?: number } }) =>
        arg.body.id ? [PRODUCTS, one(arg.body.id)] : [PRODUCTS],
      ),
    },
    saveProductSkus: {
      invalidatesTags: invalidates((arg: { body: { productId: number } }) => [PRODUCTS, one(arg.body.productId)]),
    },
    operateProducts: { invalidatesTags: invalidates([PRODUCTS]) },
  },
});

export const {
  useListProductsQuery,
  useProductInfoQuery,
  useSaveProductMutation,
  useSaveProductSkusMutation,
  useOperateProductsMutation,
} = productsApi;
