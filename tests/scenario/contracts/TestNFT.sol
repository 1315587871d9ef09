// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface IERC721Receiver {
    function onERC721Received(address, address, uint256, bytes calldata) external returns (bytes4);
}

/// @title A CFC-721 (ERC-721) collection whose token URIs are set at mint (data: or http URLs).
contract TestNFT {
    string public name;
    string public symbol;
    address public immutable minter;
    uint256 public totalSupply;
    mapping(uint256 => address) public ownerOf;
    mapping(address => uint256) public balanceOf;
    mapping(uint256 => address) public getApproved;
    mapping(address => mapping(address => bool)) public isApprovedForAll;
    mapping(uint256 => string) private uris;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);

    constructor(string memory name_, string memory symbol_) {
        name = name_;
        symbol = symbol_;
        minter = msg.sender;
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x01ffc9a7 || id == 0x80ac58cd || id == 0x5b5e139f;
    }

    function tokenURI(uint256 tokenId) external view returns (string memory) {
        require(ownerOf[tokenId] != address(0), "no such token");
        return uris[tokenId];
    }

    function mint(address to, uint256 tokenId, string calldata uri) external {
        require(msg.sender == minter, "only minter");
        require(to != address(0) && ownerOf[tokenId] == address(0), "cannot mint");
        ownerOf[tokenId] = to;
        balanceOf[to] += 1;
        totalSupply += 1;
        uris[tokenId] = uri;
        emit Transfer(address(0), to, tokenId);
    }

    function setTokenURI(uint256 tokenId, string calldata uri) external {
        require(msg.sender == minter && ownerOf[tokenId] != address(0), "cannot set");
        uris[tokenId] = uri;
    }

    function burn(uint256 tokenId) external {
        address owner = ownerOf[tokenId];
        require(msg.sender == owner, "not owner");
        delete getApproved[tokenId];
        delete uris[tokenId];
        balanceOf[owner] -= 1;
        totalSupply -= 1;
        delete ownerOf[tokenId];
        emit Transfer(owner, address(0), tokenId);
    }

    function approve(address to, uint256 tokenId) external {
        address owner = ownerOf[tokenId];
        require(msg.sender == owner || isApprovedForAll[owner][msg.sender], "not allowed");
        getApproved[tokenId] = to;
        emit Approval(owner, to, tokenId);
    }

    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function transferFrom(address from, address to, uint256 tokenId) public {
        require(ownerOf[tokenId] == from && to != address(0), "bad transfer");
        require(
            msg.sender == from || getApproved[tokenId] == msg.sender || isApprovedForAll[from][msg.sender],
            "not allowed"
        );
        delete getApproved[tokenId];
        balanceOf[from] -= 1;
        balanceOf[to] += 1;
        ownerOf[tokenId] = to;
        emit Transfer(from, to, tokenId);
    }

    function safeTransferFrom(address from, address to, uint256 tokenId) external {
        transferFrom(from, to, tokenId);
        if (to.code.length > 0) {
            require(
                IERC721Receiver(to).onERC721Received(msg.sender, from, tokenId, "") == 0x150b7a02,
                "receiver refused"
            );
        }
    }
}
