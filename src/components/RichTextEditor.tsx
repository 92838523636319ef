/**
 * The one rich-text editor (product details here; notices and the two texts later): Tiptap through
 * mui-tiptap, with what the allow-list of domain/richText.ts keeps — headings, bold, italic, underline,
 * strike, lists, quote, links, images uploaded through the oss ticket, tables, undo/redo — and a 预览
 * tab showing the HTML as a member sees it (sanitized as RichTextView shows stored text). Loaded only
 * by the pages that edit (import it with React.lazy): Tiptap and ProseMirror are most of its weight.
 */
import { useState } from 'react';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import { TableCell, TableHeader, TableRow } from '@tiptap/extension-table';
import {
  LinkBubbleMenu,
  LinkBubbleMenuHandler,
  MenuButtonAddTable,
  MenuButtonBlockquote,
  MenuButtonBold,
  MenuButtonBulletedList,
  MenuButtonEditLink,
  MenuButtonImageUpload,
  MenuButtonItalic,
  MenuButtonOrderedList,
  MenuButtonRedo,
  MenuButtonStrikethrough,
  MenuButtonUnderline,
  MenuButtonUndo,
  MenuControlsContainer,
  MenuDivider,
  MenuSelectHeading,
  RichTextEditor as TiptapEditor,
  TableBubbleMenu,
  TableImproved,
} from 'mui-tiptap';
import { UPLOAD_ACCEPT } from '../../domain/uploads';
import { useAppDispatch } from '../store/hooks';
import { uploadImage } from '../services/uploads';
import RichTextView from './RichTextView';

const EXTENSIONS = [
  StarterKit.configure({
    heading: { levels: [1, 2, 3, 4] },
    link: { openOnClick: false, autolink: true, protocols: ['http', 'https', 'mailto'] },
    code: false,
  }),
  Image,
  TableImproved.configure({ resizable: false }),
  TableRow,
  TableHeader,
  TableCell,
  LinkBubbleMenuHandler,
];

const HEADING_LABELS = {
  paragraph: '正文',
  heading1: '标题1',
  heading2: '标题2',
  heading3: '标题3',
  heading4: '标题4',
  empty: '格式',
};
const LINK_LABELS = {
  viewLinkEditButtonLabel: '编辑',
  viewLinkRemoveButtonLabel: '移除',
  editLinkAddTitle: '插入链接',
  editLinkEditTitle: '编辑链接',
  editLinkTextInputLabel: '文字',
  editLinkHrefInputLabel: '链接地址',
  editLinkCancelButtonLabel: '取消',
  editLinkSaveButtonLabel: '保存',
};
const TABLE_LABELS = {
  insertColumnBefore: '左侧插入列',
  insertColumnAfter: '右侧插入列',
  deleteColumn: '删除列',
  insertRowAbove: '上方插入行',
  insertRowBelow: '下方插入行',
  deleteRow: '删除行',
  mergeCells: '合并单元格',
  splitCell: '拆分单元格',
  toggleHeaderRow: '切换表头行',
  toggleHeaderColumn: '切换表头列',
  toggleHeaderCell: '切换表头单元格',
  deleteTable: '删除表格',
};

export interface RichTextEditorProps {
  /** The HTML the editor starts from (read once: the editor keeps its own document after that). */
  initial: string;
  onChange: (html: string) => void;
  /** Told when an image upload starts and ends (the form keeps 保存 disabled meanwhile). */
  onBusy?: (busy: boolean) => void;
  /** Height of the editing area, px. */
  minHeight?: number;
  /** The editing area's accessible name (e.g. "正文"). */
  label?: string;
}

export default function RichTextEditor({
  initial,
  onChange,
  onBusy,
  minHeight = 240,
  label = '正文',
}: RichTextEditorProps) {
  const dispatch = useAppDispatch();
  const [tab, setTab] = useState<'edit' | 'preview'>('edit');
  const [html, setHtml] = useState(initial);
  const [error, setError] = useState<string | null>(null);

  const upload = async (files: File[]) => {
    setError(null);
    onBusy?.(true);
    try {
      const done = [];
      for (const file of files) done.push({ src: (await uploadImage(dispatch, file)).url, alt: file.name });
      return done;
    } catch (e) {
      setError(e instanceof Error ? e.message : '上传失败');
      return [];
    } finally {
      onBusy?.(false);
    }
  };

  return (
    <Box data-testid="rich-text-editor">
      <Tabs
        value={tab}
        onChange={(_, v) => setTab(v)}
        sx={{ minHeight: 36, '& .MuiTab-root': { minHeight: 36, py: 0 } }}
      >
        <Tab value="edit" label="编辑" />
        <Tab value="preview" label="预览" />
      </Tabs>
      <Box sx={{ display: tab === 'edit' ? 'block' : 'none', '& .ProseMirror': { minHeight } }}>
        <TiptapEditor
          extensions={EXTENSIONS}
          content={initial}
          // Made after mount, not during a render React may throw away (a concurrent render would
          // otherwise hand the toolbar an editor that was already destroyed).
          immediatelyRender={false}
          editorProps={{ attributes: { 'aria-label': label, 'aria-multiline': 'true' } }}
          onUpdate={({ editor }) => {
            const next = editor.isEmpty ? '' : editor.getHTML();
            setHtml(next);
            onChange(next);
          }}
          renderControls={() => (
            <MenuControlsContainer>
              <MenuSelectHeading labels={HEADING_LABELS} />
              <MenuDivider />
              <MenuButtonBold tooltipLabel="加粗" />
              <MenuButtonItalic tooltipLabel="斜体" />
              <MenuButtonUnderline tooltipLabel="下划线" />
              <MenuButtonStrikethrough tooltipLabel="删除线" />
              <MenuDivider />
              <MenuButtonOrderedList tooltipLabel="编号列表" />
              <MenuButtonBulletedList tooltipLabel="项目列表" />
              <MenuButtonBlockquote tooltipLabel="引用" />
              <MenuDivider />
              <MenuButtonEditLink tooltipLabel="链接" />
              <MenuButtonImageUpload
                tooltipLabel="插入图片"
                onUploadFiles={upload}
                inputProps={{ accept: UPLOAD_ACCEPT, multiple: true }}
              />
              <MenuButtonAddTable tooltipLabel="插入表格" />
              <MenuDivider />
              <MenuButtonUndo tooltipLabel="撤销" />
              <MenuButtonRedo tooltipLabel="重做" />
            </MenuControlsContainer>
          )}
        >
          {() => (
            <>
              <LinkBubbleMenu labels={LINK_LABELS} />
              <TableBubbleMenu labels={TABLE_LABELS} />
            </>
          )}
        </TiptapEditor>
        {error && <Box sx={{ color: 'error.main', fontSize: 12, mt: 0.5 }}>{error}</Box>}
      </Box>
      {tab === 'preview' && (
        <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2, minHeight, maxWidth: 420 }}>
          {html ? <RichTextView html={html} /> : <Box sx={{ color: 'text.secondary' }}>暂无内容</Box>}
        </Box>
      )}
    </Box>
  );
}
