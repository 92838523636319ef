/** A notice as a member sees it (the stored HTML sanitized again); loaded on the first 预览. */
import Typography from '@mui/material/Typography';
import { NoticeStatus } from '../../../domain/content';
import { formatTime } from '../../../domain/time';
import RichTextView from '../../components/RichTextView';
import SideDrawer from '../../components/SideDrawer';
import type { Notice } from './NoticeListPage';

export default function NoticePreview({ notice, onClose }: { notice: Notice | null; onClose: () => void }) {
  return (
    <SideDrawer open={!!notice} onClose={onClose} title="公告预览" label="公告预览" width={460}>
      {notice && (
        <>
          <Typography variant="h6" component="h2" gutterBottom>
            {notice.title}
          </Typography>
          <Typography variant="body2" color="text.secondary" gutterBottom>
            {notice.publishedAt ? `发布于 ${formatTime(notice.publishedAt)}` : NoticeStatus.label(notice.status)}
          </Typography>
          <RichTextView html={notice.content} />
        </>
      )}
    </SideDrawer>
  );
}
