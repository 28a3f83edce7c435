// SPDX-License-Identifier: GPL-3.0
pragma solidity >=0.8.0;

// A small token: the total supply is the sum of two balances, and transfers keep it.
contract Token {
    mapping(address => uint) balance;
    address immutable a;
    address immutable b;
    uint total;

    constructor(address _a, address _b) {
        require(_a != _b);
        a = _a;
        b = _b;
        balance[_a] = 1000;
        total = 1000;
    }

    function transfer(bool toB, uint amount) external {
        (address from, address to) = toB ? (a, b) : (b, a);
        require(balance[from] >= amount);
        balance[from] -= amount;
        balance[to] += amount;
    }

    function check() external view {
        assert(balance[a] + balance[b] == total); // holds
        assert(balance[a] <= 999); // fails: nothing has been transferred yet
    }
}
