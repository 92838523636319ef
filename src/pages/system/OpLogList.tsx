/**
 * The 操作日志 tab: `user/opt/list` filtered by user name (exact), action (a permission code) and a
 * date range. Its URL keys carry the `log.` prefix so they never mix with the managers tab's.
 */
import { useMemo } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import type { Column } from '../../components/table/columnTypes';
import { opTargetPath, opTargetText } from '../../../domain/opTargets';
import { opLogActions } from '../../../domain/opLog';
import DateRangeFilter from '../../components/DateRangeFilter';
import { timeColumn } from '../../components/columns';
import ListPage from '../../components/ListPage';
import { useListParams } from '../../components/useListParams';
import EnumSelect from '../../components/EnumSelect';
import type { ListOpLogsApiResponse, ListOpLogsApiArg } from '../../services/generated/system';
import { useListOpLogsQuery } from '../../services/system';

type OpLogRow = ListOpLogsApiResponse['list'][number];

const FILTERS = { username: '', code: '', start: '', end: '' };

/** Every page and action of the permission tree, and the server's account events. */
const ACTION_OPTIONS = opLogActions.map((p) => ({ value: p.code, label: p.title }));

const COLUMNS: Column<OpLogRow>[] = [
  { field: 'id', headerName: 'ID', width: 80 },
  { field: 'username', headerName: '操作人', width: 130 },
  { field: 'codeTitle', headerName: '操作', width: 150 },
  {
    field: 'target',
    headerName: '操作对象',
    width: 200,
    // A link to the record's page where the target names one (a page the role lacks answers 403).
    renderCell: ({ value, row }) => {
      const target = value as string;
      const to = opTargetPath(target, row.code);
      const text = opTargetText(target, row.code);
      return to ? (
        <Link component={RouterLink} to={`/layout/${to}`}>
          {text}
        </Link>
      ) : (
        text || '-'
      );
    },
  },
  { field: 'summary', headerName: '内容', flex: 1, minWidth: 240 },
  { field: 'ip', headerName: 'IP', width: 140 },
  timeColumn('createdAt', '操作时间'),
];

export default function OpLogList() {
  const params = useListParams({ filters: FILTERS, prefix: 'log.' });
  const { data, isFetching, refetch } = useListOpLogsQuery(params.queryArgs as ListOpLogsApiArg);
  const columns = useMemo(() => COLUMNS, []);
  return (
    <ListPage
      params={params}
      columns={columns}
      data={data}
      isFetching={isFetching}
      onRefresh={refetch}
      label="操作日志"
    >
      <TextField label="操作人" size="small" {...params.field('username')} />
      <EnumSelect filter label="操作" options={ACTION_OPTIONS} sx={{ width: 180 }} {...params.field('code')} />
      <DateRangeFilter params={params} />
    </ListPage>
  );
}
