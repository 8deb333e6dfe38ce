// Sort a table by a column when its header is clicked (numbers by value, nulls last).
document.querySelectorAll("table.sortable").forEach(function (table) {
  var headers = table.querySelectorAll("th");
  headers.forEach(function (header, column) {
    header.addEventListener("click", function () {
      var ascending = header.getAttribute("aria-sort") !== "ascending";
      headers.forEach(function (h) { h.removeAttribute("aria-sort"); });
      header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[column].dataset.value, y = b.cells[column].dataset.value;
        if (x === "") return 1;
        if (y === "") return -1;
        var order = isNaN(x) || isNaN(y) ? x.localeCompare(y) : Number(x) - Number(y);
        return ascending ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});

// Pin the segment columns (class "key") when a wide table scrolls sideways: each at the width of those before it.
document.querySelectorAll("table").forEach(function (table) {
  var left = 0;
  Array.prototype.forEach.call(table.querySelectorAll("thead th.key"), function (header, column) {
    Array.prototype.forEach.call(table.rows, function (row) { row.cells[column].style.left = left + "px"; });
    left += header.getBoundingClientRect().width;
  });
});
