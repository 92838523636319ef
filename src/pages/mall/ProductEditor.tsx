/**
 * 新增商品 / 编辑商品: name, kind (实物, or 种子 with the energy a purchase grants), pay asset, sort,
 * cover and gallery, the spec dimensions and the SKU table, and the rich-text detail (its editor is
 * loaded only here). 保存 checks everything first, then saves the product and its SKU set; a refusal
 * stays in the dialog with what was typed. Kind and pay asset are fixed once the product has orders.
 * Closing with unsaved changes asks first.
 */
import { lazy, Suspense, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Assets, type Asset } from '../../../domain/assets';
import { ProductKind } from '../../../domain/mall';
import EnumSelect from '../../components/EnumSelect';
import { errorMessage } from '../../components/FormDialog';
import ImageUpload from '../../components/ImageUpload';
import { MoneyField, wholeNumberText } from '../../components/MoneyField';
import { useConfirm } from '../../components/useConfirm';
import { useProductInfoQuery, useSaveProductMutation, useSaveProductSkusMutation } from '../../services/products';
import { useAppDispatch } from '../../store/hooks';
import { toastShown } from '../../store/toastSlice';
import GalleryField from './GalleryField';
import {
  checkDraft,
  draftOf,
  EMPTY_DRAFT,
  productBody,
  SEED_DAYS_RULE,
  skusBody,
  type ProductDraft,
} from './productDraft';
import SkuEditor from './SkuEditor';

const RichTextEditor = lazy(() => import('../../components/RichTextEditor'));

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function EditorForm({
  id,
  initial,
  locked,
  onDone,
  onCancel,
}: {
  id: number | undefined;
  initial: ProductDraft;
  /** The product has orders: kind and pay asset cannot change. */
  locked: boolean;
  onDone: () => void;
  onCancel: (dirty: boolean) => void;
}) {
  const dispatch = useAppDispatch();
  const [saveProduct] = useSaveProductMutation();
  const [saveSkus] = useSaveProductSkusMutation();
  const [d, setD] = useState<ProductDraft>(initial);
  const [dirty, setDirty] = useState(false);
  const [busy, setBusy] = useState(0);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  /** The id once the product row exists (a set refused after a new product was made is saved again as an update). */
  const [savedId, setSavedId] = useState(id);
  const set = (patch: Partial<ProductDraft>) => {
    setD((x) => ({ ...x, ...patch }));
    setDirty(true);
  };
  const onBusy = (b: boolean) => setBusy((n) => n + (b ? 1 : -1));
  const seed = Number(d.kind) === ProductKind.is.seed;

  const save = async () => {
    setTried(true);
    const problem = checkDraft(d);
    setError(problem);
    if (problem) return;
    setSaving(true);
    try {
      const { id: productId } = await saveProduct({ body: productBody(d, savedId) }).unwrap();
      setSavedId(productId);
      await saveSkus({ body: skusBody(d, productId) }).unwrap();
      dispatch(toastShown('保存成功', 'success'));
      onDone();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <DialogContent dividers>
        <Stack spacing={3}>
          {error ? <Alert severity="error">{error}</Alert> : null}
          <Section title="基本信息">
            <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2 }}>
              <TextField
                label="商品名称"
                required
                value={d.name}
                onChange={(e) => set({ name: e.target.value })}
                error={tried && !d.name.trim()}
                sx={{ width: 360 }}
                slotProps={{ htmlInput: { maxLength: 60 } }}
              />
              <EnumSelect
                label="商品类型"
                options={ProductKind}
                value={d.kind}
                onChange={(e) => set({ kind: e.target.value })}
                disabled={locked}
                sx={{ width: 140 }}
              />
              <EnumSelect
                label="支付币种"
                options={Assets}
                value={d.asset}
                onChange={(e) => set({ asset: e.target.value as Asset })}
                disabled={locked}
                sx={{ width: 140 }}
              />
              <TextField
                label="排序"
                value={d.sort}
                onChange={(e) => set({ sort: e.target.value })}
                helperText="数字越大越靠前"
                sx={{ width: 140 }}
              />
            </Stack>
            {locked ? (
              <Typography variant="caption" color="text.secondary">
                已有订单，商品类型和支付币种不能修改
              </Typography>
            ) : null}
            {seed ? (
              <Stack direction="row" sx={{ gap: 2, mt: 2 }}>
                <MoneyField
                  asset="ENERGY"
                  label="总能量（每件）"
                  required
                  value={d.seedEnergy}
                  onChange={(e) => set({ seedEnergy: e.target.value })}
                  sx={{ width: 220 }}
                />
                <TextField
                  label="释放天数"
                  required
                  value={d.seedDays}
                  onChange={(e) => set({ seedDays: wholeNumberText(e.target.value) })}
                  // Kept as typed ("1.5" is not read as 15): a number that is not whole says so at once.
                  error={/\D/.test(d.seedDays)}
                  helperText={/\D/.test(d.seedDays) ? SEED_DAYS_RULE : '购买后生成种子，按天释放能量'}
                  sx={{ width: 220 }}
                />
              </Stack>
            ) : null}
          </Section>
          <Section title="商品图片">
            <Stack spacing={2}>
              <ImageUpload label="商品封面" value={d.cover} onChange={(cover) => set({ cover })} onBusy={onBusy} />
              <GalleryField value={d.gallery} onChange={(gallery) => set({ gallery })} onBusy={onBusy} />
            </Stack>
          </Section>
          <Section title="规格与库存">
            <SkuEditor
              asset={d.asset}
              dims={d.dims}
              rows={d.rows}
              onChange={(dims, rows) => set({ dims, rows })}
              onBusy={onBusy}
              showErrors={tried}
            />
          </Section>
          <Section title="商品详情">
            <Suspense fallback={<CircularProgress size={24} aria-label="编辑器加载中" />}>
              <RichTextEditor
                label="商品详情"
                initial={initial.detail}
                onChange={(detail) => set({ detail })}
                onBusy={onBusy}
              />
            </Suspense>
          </Section>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onCancel(dirty)} disabled={saving}>
          取消
        </Button>
        <Button
          variant="contained"
          onClick={save}
          disabled={saving || busy > 0}
          startIcon={saving ? <CircularProgress size={16} /> : null}
        >
          保存
        </Button>
      </DialogActions>
    </>
  );
}

export default function ProductEditor({
  open,
  id,
  onClose,
}: {
  open: boolean;
  id: number | undefined;
  onClose: () => void;
}) {
  const { data, isFetching, isError } = useProductInfoQuery(
    { productId: id ?? 0 },
    { skip: !open || !id, refetchOnMountOrArgChange: true },
  );
  const [confirm, confirmDialog] = useConfirm();
  const ready = !id || (data && data.id === id && !isFetching);
  const cancel = async (dirty: boolean) => {
    if (dirty && !(await confirm({ content: '有未保存的修改，确认放弃？', danger: true }))) return;
    onClose();
  };
  return (
    <Dialog
      open={open}
      maxWidth="lg"
      fullWidth
      scroll="paper"
      aria-labelledby="product-editor-title"
      onClose={() => undefined}
    >
      <DialogTitle id="product-editor-title">{id ? `编辑商品 #${id}` : '新增商品'}</DialogTitle>
      {isError ? (
        <DialogContent>
          <Alert severity="error">商品加载失败</Alert>
        </DialogContent>
      ) : ready ? (
        <EditorForm
          key={id ?? 'new'}
          id={id}
          initial={id && data ? draftOf(data) : EMPTY_DRAFT}
          locked={!!data && id === data.id && data.orders > 0}
          onDone={onClose}
          onCancel={cancel}
        />
      ) : (
        <DialogContent>
          <CircularProgress aria-label="加载中" />
        </DialogContent>
      )}
      {confirmDialog}
    </Dialog>
  );
}
