/** What a batch did, per record: how many succeeded, and each failure with the server's reason. */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';

export interface BatchResult {
  succeeded: number[];
  failed: { id: number; msg: string }[];
}

export function batchSummary(r: BatchResult): string {
  return `成功 ${r.succeeded.length} 条，失败 ${r.failed.length} 条`;
}

export default function BatchResultDialog({
  result,
  title,
  onClose,
}: {
  result: BatchResult | null;
  title: string;
  onClose: () => void;
}) {
  return (
    <Dialog open={result !== null} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="batch-result-title">
      <DialogTitle id="batch-result-title">{`${title}结果`}</DialogTitle>
      <DialogContent>
        {result ? (
          <>
            <Alert severity={result.failed.length === 0 ? 'success' : result.succeeded.length ? 'warning' : 'error'}>
              {batchSummary(result)}
            </Alert>
            {result.succeeded.length ? (
              <ListItemText
                sx={{ mt: 1 }}
                primary="成功"
                secondary={result.succeeded.map((id) => `#${id}`).join('、')}
              />
            ) : null}
            {result.failed.length ? (
              <List dense aria-label="失败明细">
                {result.failed.map((f) => (
                  <ListItem key={f.id} disableGutters>
                    <ListItemText primary={`#${f.id}`} secondary={f.msg} />
                  </ListItem>
                ))}
              </List>
            ) : null}
          </>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          知道了
        </Button>
      </DialogActions>
    </Dialog>
  );
}
