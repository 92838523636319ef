/** 商品图片: the gallery in its order — each image can move forward or back or be removed; new ones are added at the end. */
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import ArrowForward from '@mui/icons-material/ArrowForward';
import Close from '@mui/icons-material/Close';
import { SkuLimits } from '../../../domain/mallRules';
import { thumbOf } from '../../../domain/formats';
import ImageUpload from '../../components/ImageUpload';

/** `list` with the item at `from` moved to `to`. */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

export default function GalleryField({
  value,
  onChange,
  onBusy,
}: {
  value: string[];
  onChange: (urls: string[]) => void;
  onBusy?: (busy: boolean) => void;
}) {
  return (
    <Stack spacing={1}>
      <Typography variant="body2" color="text.secondary">
        商品图片（{value.length}/{SkuLimits.gallery}，第一张在最前）
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }} role="list" aria-label="商品图片">
        {value.map((url, i) => (
          <Box
            key={`${url}-${i}`}
            role="listitem"
            sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 0.5, textAlign: 'center' }}
          >
            <Box
              component="img"
              src={thumbOf(url)}
              alt={`商品图片${i + 1}`}
              sx={{ width: 88, height: 88, objectFit: 'cover', display: 'block', borderRadius: 0.5 }}
            />
            <Stack direction="row" sx={{ justifyContent: 'center' }}>
              <IconButton
                size="small"
                aria-label={`图片${i + 1}前移`}
                disabled={i === 0}
                onClick={() => onChange(moved(value, i, i - 1))}
              >
                <ArrowBack fontSize="inherit" />
              </IconButton>
              <IconButton
                size="small"
                aria-label={`图片${i + 1}后移`}
                disabled={i === value.length - 1}
                onClick={() => onChange(moved(value, i, i + 1))}
              >
                <ArrowForward fontSize="inherit" />
              </IconButton>
              <IconButton
                size="small"
                aria-label={`移除图片${i + 1}`}
                onClick={() => onChange(value.filter((_, j) => j !== i))}
              >
                <Close fontSize="inherit" />
              </IconButton>
            </Stack>
          </Box>
        ))}
      </Stack>
      {value.length < SkuLimits.gallery ? (
        <ImageUpload
          label="添加商品图片"
          value=""
          onChange={(url) => url && onChange([...value, url])}
          onBusy={onBusy}
        />
      ) : null}
    </Stack>
  );
}
