// A small icicle flame graph of the thread creators: the daemon sends a tree (top frame first, the
// callers below it), this draws one absolutely positioned box per frame. Self-written rather than
// d3-flame-graph: that needs all of d3 (~280 KB) for what is ~80 lines here. Frame names come from
// the target: they are set with textContent and title only, never as markup.
'use strict';

window.FlameGraph = (function () {
  const ROW = 18;
  // Frames narrower than this share of the width are not drawn: bounded DOM at any start rate.
  const MIN_SHARE = 0.002;

  function isJdk(name) {
    return /^(java|javax|jdk|sun|com\.sun)\./.test(name);
  }

  function render(container, root) {
    container.replaceChildren();
    if (!root || root.value === 0) {
      const empty = document.createElement('p');
      empty.className = 'muted';
      empty.textContent = 'No thread starts in this window.';
      container.appendChild(empty);
      container.style.height = '';
      return;
    }
    let nextId = 0;
    let depthMax = 0;
    const total = root.value;

    function draw(node, depth, left, parentId) {
      const share = node.value / total;
      if (share < MIN_SHARE) {
        return;
      }
      const id = nextId++;
      depthMax = Math.max(depthMax, depth);
      const box = document.createElement('div');
      box.className = 'frame' + (depth === 0 ? ' root' : isJdk(node.name) ? ' jdk' : '');
      if (node.cause) {
        box.className += ' known';
      }
      box.style.left = (left * 100) + '%';
      box.style.width = (share * 100) + '%';
      box.style.top = (depth * ROW) + 'px';
      box.dataset.id = String(id);
      box.dataset.parent = String(parentId);
      box.dataset.depth = String(depth);
      box.dataset.value = String(node.value);
      box.dataset.frame = node.name;
      const label = node.cause ? node.name + '  [' + node.cause.id + ']' : node.name;
      box.textContent = label;
      let title = node.name + '\n' + node.value + ' starts (' + (share * 100).toFixed(1) + '%)';
      if (node.cause) {
        title += '\nknown cause: ' + node.cause.title;
      }
      box.title = title;
      container.appendChild(box);
      let childLeft = left;
      for (const child of node.children) {
        draw(child, depth + 1, childLeft, id);
        childLeft += child.value / total;
      }
    }

    draw(root, 0, 0, -1);
    container.style.height = ((depthMax + 1) * ROW + 2) + 'px';
  }

  return { render: render };
})();
