// gpubench report: draws the page's charts with Chart.js from the model in #report-data (report_charts.hpp, written
// by html_report.cpp) and writes into #render-status how many it drew and every error, so that a headless browser
// can tell a page that works from one that does not. This script comes before Chart.js, so that an error in
// loading Chart.js is counted too, and draws once the page has been read.
(function () {
  'use strict';

  const errors = [];
  window.addEventListener('error', (event) => errors.push(event.message || String(event.error)));

  const COLOURS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd',
                   '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
  // Past ten lines colours repeat: the point's shape tells them apart.
  const POINT_STYLES = ['circle', 'rect', 'triangle', 'rectRot', 'star', 'crossRot'];
  const REFERENCE_COLOUR = '#444444';
  const CHANGE_POINT_COLOUR = '#d62728';

  // "4 KiB", "1 GiB": sizes as metric ids write them.
  function bytesText(bytes) {
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let unit = 0;
    while (bytes >= 1024 && bytes % 1024 === 0 && unit < units.length - 1) {
      bytes /= 1024;
      unit += 1;
    }
    return bytes + ' ' + units[unit];
  }

  function dataset(chart, series, index) {
    const colour = series.reference ? REFERENCE_COLOUR : COLOURS[index % COLOURS.length];
    const data = chart.x === 'categories' ? series.y : series.x.map((x, i) => ({x: x, y: series.y[i]}));
    const set = {label: series.label, data: data, borderColor: colour, backgroundColor: colour};
    if (series.reference) {
      // A line across the categories or sizes; on a bar chart of one category it has no length, so a dash shows it.
      const alone = chart.x === 'categories' && chart.categories.length === 1;
      return Object.assign(set, {type: 'line', order: -1, borderDash: [6, 4], borderWidth: 1.5, fill: false,
                                 backgroundColor: 'transparent',  // the legend shows a dashed outline
                                 pointStyle: 'line', pointRadius: alone ? 40 : 0, pointHoverRadius: alone ? 40 : 0});
    }
    if (chart.kind === 'bar') return set;
    const marked = new Set(series.marked);
    const style = POINT_STYLES[Math.floor(index / COLOURS.length) % POINT_STYLES.length];
    const radius = data.length > 60 ? 0 : 2.5;  // a second's telemetry for minutes is a line, not dots
    return Object.assign(set, {
      borderWidth: 2,
      spanGaps: chart.x === 'categories',  // a run of another host; in telemetry a gap is a reading that failed
      pointStyle: data.map((_, i) => (marked.has(i) ? 'triangle' : style)),
      pointRadius: data.map((_, i) => (marked.has(i) ? 9 : radius)),
      pointBackgroundColor: data.map((_, i) => (marked.has(i) ? CHANGE_POINT_COLOUR : colour)),
      pointBorderColor: data.map((_, i) => (marked.has(i) ? CHANGE_POINT_COLOUR : colour)),
    });
  }

  // Ticks at the sizes measured, not at Chart.js's powers of ten, each far enough from the one before for its label
  // ("128 MiB") to fit: the sizes of a sweep crowd together on a log scale where it steps by less than 4x. The
  // largest size always has its label.
  function sizeTicks(axis, sizes) {
    const span = Math.log(axis.max) - Math.log(axis.min);
    const apart = (a, b) => (Math.log(b) - Math.log(a)) / span * axis.width >= 64;  // pixels
    const kept = [];
    sizes.forEach((size, i) => {
      const largest = i === sizes.length - 1;
      if (largest && kept.length && !apart(kept[kept.length - 1], size)) kept.pop();
      if (largest || !kept.length || apart(kept[kept.length - 1], size)) kept.push(size);
    });
    return kept.map((value) => ({value: value}));
  }

  function xScale(chart) {
    const scale = {title: {display: true, text: chart.x_title}};
    if (chart.x === 'bytes') {
      const sizes = Array.from(new Set(chart.series.flatMap((s) => s.x))).sort((a, b) => a - b);
      return Object.assign(scale, {
        type: 'logarithmic',
        afterBuildTicks: (axis) => { axis.ticks = sizeTicks(axis, sizes); },
        ticks: {callback: (value) => bytesText(value), maxRotation: 0},
      });
    }
    return Object.assign(scale, {type: chart.x === 'seconds' ? 'linear' : 'category'});
  }

  // On a log scale, a label at each power of ten only: "0.001", "1", "100".
  function powerOfTenText(value) {
    const exponent = Math.log10(value);
    return Math.abs(exponent - Math.round(exponent)) < 1e-9 ? String(Number(value.toPrecision(1))) : '';
  }

  function configuration(chart) {
    const titles = {
      bytes: (items) => bytesText(items[0].parsed.x),
      seconds: (items) => items[0].parsed.x + ' s',
      categories: (items) => items[0].label,
    };
    return {
      type: chart.kind,
      data: {labels: chart.x === 'categories' ? chart.categories : undefined,
             datasets: chart.series.map((series, index) => dataset(chart, series, index))},
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        interaction: {mode: 'nearest', intersect: false},
        plugins: {legend: {position: 'bottom'}, tooltip: {callbacks: {title: titles[chart.x]}}},
        scales: {
          x: xScale(chart),
          y: {type: chart.y_log ? 'logarithmic' : 'linear', beginAtZero: chart.kind === 'bar',
              ticks: chart.y_log ? {callback: powerOfTenText} : {},
              title: {display: true, text: chart.y_title}},
        },
      },
    };
  }

  // Drawn: every series has a point (or bar) at a place on the canvas, and the canvas is not blank.
  function drawn(chart) {
    const everySeries = chart.data.datasets.every((_, i) => chart.getDatasetMeta(i).data.some(
        (element) => Number.isFinite(element.x) && Number.isFinite(element.y)));
    const canvas = chart.canvas;
    if (!canvas.width || !canvas.height) return false;  // in a hidden element
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = false;
    for (let i = 3; i < pixels.length && !painted; i += 4) painted = pixels[i] !== 0;
    return everySeries && painted;
  }

  function report(count) {
    const status = document.getElementById('render-status');
    status.dataset.charts = String(count);
    status.dataset.errors = String(errors.length);
    status.dataset.done = 'true';
    status.textContent = count + ' of ' + status.dataset.expected + ' charts drawn' +
                         (errors.length ? ', ' + errors.length + ' errors:' : '');
    if (!errors.length) return;
    status.classList.add('failed');
    const list = document.createElement('ul');
    for (const error of errors) list.appendChild(document.createElement('li')).textContent = error;
    status.appendChild(list);
  }

  document.addEventListener('DOMContentLoaded', () => {
    let charts = [];
    try {
      charts = JSON.parse(document.getElementById('report-data').textContent).charts;
    } catch (error) {
      errors.push('the charts\' data: ' + error.message);
    }
    let count = 0;
    charts.forEach((chart, index) => {
      try {
        const canvas = document.querySelector('canvas[data-chart="' + index + '"]');
        if (!canvas) throw new Error('no canvas for it');
        if (!drawn(new Chart(canvas, configuration(chart)))) throw new Error('drew nothing');
        count += 1;
      } catch (error) {
        errors.push('chart ' + (index + 1) + ' (' + chart.title + '): ' + error.message);
      }
    });
    report(count);
  });
})();
