import { render, screen } from '@testing-library/react';
import { ThemeProvider } from '@mui/material/styles';
import { DataGrid } from '@mui/x-data-grid';
import XLocalizationProvider from '../../../src/components/XLocalizationProvider';
import { theme } from '../../../src/theme';

describe('XLocalizationProvider', () => {
  it('gives the DataGrid its Chinese texts', async () => {
    render(
      <ThemeProvider theme={theme}>
        <XLocalizationProvider>
          <div style={{ height: 300, width: 600 }}>
            <DataGrid columns={[{ field: 'name', headerName: '名称' }]} rows={[]} />
          </div>
        </XLocalizationProvider>
      </ThemeProvider>,
    );
    expect(await screen.findByText('没有数据。')).toBeInTheDocument();
  });
});
