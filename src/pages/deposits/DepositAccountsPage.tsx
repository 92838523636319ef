/**
 * 收款地址: the platform's wallets members deposit to. Create and edit in a dialog that checks the
 * address against its chain (TRC20: T + 33 base58 characters; ERC20: 0x + 40 hex digits); enable,
 * disable and delete behind a confirmation. Actions need depositAccount:opt.
 */
import { useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import AddIcon from '@mui/icons-material/Add';
import type { Column } from '../../components/table/columnTypes';
import {
  Chains,
  chainAddressMessage,
  DepositAccountStatus,
  isChain,
  isChainAddress,
  type Chain,
} from '../../../domain/deposits';
import { Can } from '../../components/Can';
import { actionsColumn, actionsWidth, fileLinkColumn, statusColumn, timeColumn } from '../../components/columns';
import { FormDialog } from '../../components/FormDialog';
import { ListPage } from '../../components/ListPage';
import { usePermissions } from '../../components/useCan';
import useAction from '../../components/useAction';
import { useForm } from '../../components/useForm';
import { useListParams } from '../../components/useListParams';
import EnumSelect from '../../components/EnumSelect';
import ImageUpload from '../../components/ImageUpload';
import type { ListDepositAccountsApiArg, ListDepositAccountsApiResponse } from '../../services/generated/deposit';
import { useDepositAccountOptMutation, useListDepositAccountsQuery } from '../../services/deposits';

export type DepositAccount = ListDepositAccountsApiResponse['list'][number];

const FILTERS = { chain: '', status: '', address: '' };
const NUMERIC = ['status'] as const;

/** The Chinese error for an address on a chain, or null when it fits. */
export function addressError(chain: string, address: string): string | null {
  if (!isChain(chain)) return '请选择链';
  return isChainAddress(chain, address.trim()) ? null : chainAddressMessage(chain);
}

type Values = { chain: string; address: string; qrUrl: string; status: string; remark: string };
const EMPTY: Values = { chain: 'TRC20', address: '', qrUrl: '', status: '1', remark: '' };

function AccountDialog({ editing, onClose }: { editing: DepositAccount | 'new' | null; onClose: () => void }) {
  const [opt] = useDepositAccountOptMutation();
  const form = useForm<Values>(EMPTY, {
    chain: { label: '链', required: true },
    address: { label: '地址', required: true, validate: (v, values) => addressError(values.chain, v) },
    qrUrl: {
      label: '二维码图片地址',
      validate: (v) => (/^(https?:\/\/|\/)\S+$/.test(v.trim()) ? null : '二维码图片地址格式不正确'),
    },
    remark: { label: '备注', validate: (v) => (v.length > 200 ? '备注最多200个字符' : null) },
  });
  const [shown, setShown] = useState<typeof editing>(null);
  const [uploading, setUploading] = useState(false);
  if (editing !== shown) {
    setShown(editing);
    if (editing)
      form.reset(
        editing === 'new'
          ? EMPTY
          : {
              chain: editing.chain,
              address: editing.address,
              qrUrl: editing.qrUrl,
              status: String(editing.status),
              remark: editing.remark,
            },
      );
  }
  const isNew = editing === 'new';
  const submit = () => {
    const v = form.values;
    return opt({
      body: {
        action: isNew ? 'create' : 'update',
        id: isNew || !editing ? undefined : editing.id,
        chain: v.chain as Chain,
        address: v.address.trim(),
        qrUrl: v.qrUrl.trim(),
        status: v.status === '0' ? 0 : 1,
        remark: v.remark.trim(),
      },
    }).unwrap();
  };
  return (
    <FormDialog
      open={editing !== null}
      title={isNew ? '新增收款地址' : '编辑收款地址'}
      form={form}
      onClose={onClose}
      onSubmit={submit}
      successText={isNew ? '新增成功' : '保存成功'}
      waiting={uploading}
    >
      <EnumSelect
        options={Chains}
        {...form.field('chain')}
        onChange={(e) => {
          form.setValue('chain', e.target.value);
          // The address was checked against the old chain: check it again.
          if (form.values.address.trim()) form.setError('address', addressError(e.target.value, form.values.address));
        }}
      />
      <TextField
        {...form.field('address')}
        helperText={
          form.errors.address ?? (form.values.chain === 'ERC20' ? '0x开头，后跟40位十六进制' : 'T开头，共34位')
        }
        slotProps={{ htmlInput: { maxLength: 100 } }}
      />
      <ImageUpload
        label="二维码图片"
        value={form.values.qrUrl}
        onChange={(url) => form.setValue('qrUrl', url)}
        onBusy={setUploading}
      />
      <TextField
        {...form.field('qrUrl')}
        helperText={form.errors.qrUrl ?? '上传后自动填入，也可粘贴图片地址'}
        slotProps={{ htmlInput: { maxLength: 500 } }}
      />
      <EnumSelect label="状态" {...form.field('status')} options={DepositAccountStatus} />
      <TextField {...form.field('remark')} slotProps={{ htmlInput: { maxLength: 200 } }} />
    </FormDialog>
  );
}

export default function DepositAccountsPage() {
  const params = useListParams({ filters: FILTERS, numeric: NUMERIC });
  const { data, isFetching, refetch } = useListDepositAccountsQuery(params.queryArgs as ListDepositAccountsApiArg);
  const { can } = usePermissions();
  const canOpt = can('depositAccount:opt');
  const [run, actionDialog] = useAction();
  const [opt] = useDepositAccountOptMutation();
  const [editing, setEditing] = useState<DepositAccount | 'new' | null>(null);

  const act = (row: DepositAccount, action: 'enable' | 'disable' | 'delete') => {
    const text = { enable: '启用', disable: '停用', delete: '删除' }[action];
    return run({
      confirm: {
        content: `确认${text}收款地址 ${row.chain} ${row.address}？${action === 'delete' ? '删除后不可恢复。' : ''}`,
        danger: action !== 'enable',
      },
      call: () => opt({ body: { action, id: row.id } }).unwrap(),
      success: `${text}成功`,
    });
  };

  const columns = useMemo<Column<DepositAccount>[]>(
    () => [
      { field: 'id', headerName: 'ID', width: 80 },
      { field: 'chain', headerName: '链', width: 90 },
      { field: 'address', headerName: '地址', width: 380 },
      fileLinkColumn('qrUrl', '二维码', { width: 90 }),
      statusColumn('status', '状态', DepositAccountStatus.map),
      { field: 'remark', headerName: '备注', width: 160 },
      timeColumn('createdAt', '创建时间'),
      timeColumn('updatedAt', '更新时间'),
      ...(canOpt
        ? [
            actionsColumn<DepositAccount>(
              (row) => (
                <>
                  <Button size="small" onClick={() => setEditing(row)}>
                    编辑
                  </Button>
                  {row.status === DepositAccountStatus.is.enabled ? (
                    <Button size="small" onClick={() => act(row, 'disable')}>
                      停用
                    </Button>
                  ) : (
                    <Button size="small" onClick={() => act(row, 'enable')}>
                      启用
                    </Button>
                  )}
                  <Button size="small" color="error" onClick={() => act(row, 'delete')}>
                    删除
                  </Button>
                </>
              ),
              { width: actionsWidth(3) },
            ),
          ]
        : []),
    ],
    // act closes over stable hooks and the row only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [canOpt],
  );

  return (
    <>
      <ListPage
        params={params}
        columns={columns}
        data={data}
        isFetching={isFetching}
        onRefresh={refetch}
        label="收款地址"
        toolbar={
          <Can code="depositAccount:opt">
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing('new')}>
              新增收款地址
            </Button>
          </Can>
        }
      >
        <EnumSelect filter label="链" {...params.field('chain')} options={Chains} />
        <EnumSelect filter label="状态" {...params.field('status')} options={DepositAccountStatus} />
        <TextField label="地址" size="small" {...params.field('address')} />
      </ListPage>
      <AccountDialog editing={editing} onClose={() => setEditing(null)} />
      {actionDialog}
    </>
  );
}
